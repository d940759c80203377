/** Every area's operator commands. An area adds its file here. */
import { kycOperator } from './kyc.operator';
import { supportOperator } from './support.operator';
import { eventsOperator, storiesOperator, videosOperator } from './stories.operator';
import type { OperatorArea } from './registry';

export const OPERATOR_AREAS: OperatorArea[] = [
  kycOperator,
  supportOperator,
  storiesOperator, videosOperator, eventsOperator,
];
