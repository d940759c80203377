/** /request-demo: ask for a demo of the back office. */
import { RequestDemoFlow, type RequestDemoActor } from './auth/request-demo-flow';

export function RequestDemoView({ actor }: { actor: RequestDemoActor }) {
  return <RequestDemoFlow actor={actor} />;
}
