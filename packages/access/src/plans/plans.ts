import type { Config } from '@xle/core';

/** The plans of the spec's Limits table. Pay-as-you-go is not a plan here: it has no quota. */
export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Plans an API key can carry; the free plan needs no credential. */
export const KEY_PLANS = ['pro', 'enterprise'] as const;
export type KeyPlan = (typeof KEY_PLANS)[number];

export interface PlanLimit {
  perDay: number;
  perSecond: number;
}

export function isKeyPlan(value: string): value is KeyPlan {
  return (KEY_PLANS as readonly string[]).includes(value);
}

/** Daily quota and burst of each plan, from `config.access`. */
export function planLimitsOf(access: Config['access']): Readonly<Record<Plan, PlanLimit>> {
  return {
    free: { perDay: access.freePerDay, perSecond: access.freePerSecond },
    pro: { perDay: access.proPerDay, perSecond: access.proPerSecond },
    enterprise: { perDay: access.enterprisePerDay, perSecond: access.enterprisePerSecond },
  };
}

const DAY_MS = 86_400_000;

/** The last day utcDay wrote: every request asks, and the day changes once in 86,400 seconds. */
let lastDay = { number: Number.NaN, text: '' };

/** The UTC day of an instant, `YYYY-MM-DD`: quotas reset at 00:00 UTC. */
export function utcDay(nowMs: number): string {
  const number = Math.floor(nowMs / DAY_MS);
  if (number !== lastDay.number) lastDay = { number, text: new Date(nowMs).toISOString().slice(0, 10) };
  return lastDay.text;
}

/** Whole seconds until the next 00:00 UTC, at least 1 (sent as X-RateLimit-Reset and Retry-After). */
export function secondsUntilUtcMidnight(nowMs: number): number {
  const next = (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
  return Math.max(1, Math.ceil((next - nowMs) / 1000));
}
