/** How the invitation functions answer a token that cannot be used. */
import { AUTH_MESSAGES } from '../auth-messages.ts';
import type { InvitationProblem } from '../../schemas/auth.ts';
import { noticeResponse } from './auth-responses.ts';

const PROBLEMS = {
  unknown: { status: 404, notice: AUTH_MESSAGES.invitationUnknown },
  used: { status: 410, notice: AUTH_MESSAGES.invitationUsed },
  expired: { status: 410, notice: AUTH_MESSAGES.invitationExpired },
} as const;

/** 404 for an unknown token, 410 for a used or expired one; `problem` tells the page which. */
export function invitationProblemResponse(problem: InvitationProblem): Response {
  const { status, notice } = PROBLEMS[problem];
  return noticeResponse(status, notice, { problem });
}
