/** Every area's operator commands. An area adds its file here. */
import { kycOperator } from './kyc.operator';
import { tokenOperator } from './support.operator';
import type { OperatorArea } from './registry';

export const OPERATOR_AREAS: OperatorArea[] = [
  kycOperator,
  tokenOperator,
];
