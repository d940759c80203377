/** /request-demo/success: the request was received. */
import { RequestDemoFlow, type RequestDemoActor } from './auth/request-demo-flow';

export function RequestDemoSuccessView({ actor }: { actor: RequestDemoActor }) {
  return <RequestDemoFlow actor={actor} />;
}
