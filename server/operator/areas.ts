/** Every area's operator commands. An area adds its file here. */
import { kycOperator } from './kyc.operator';
import { shopOperator } from './shop.operator';
import { otcOperator } from './otc.operator';
import { compensationOperator } from './compensation.operator';
import { mailOperator } from './mail.operator';
import { supportOperator } from './support.operator';
import { eventsOperator, storiesOperator, videosOperator } from './stories.operator';
import { tokenOperator } from './support-snapshot.operator';
import type { OperatorArea } from './registry';

export const OPERATOR_AREAS: OperatorArea[] = [
  kycOperator,
  shopOperator,
  otcOperator,
  compensationOperator,
  mailOperator,
  supportOperator,
  storiesOperator,
  videosOperator,
  eventsOperator,
  tokenOperator,
];
