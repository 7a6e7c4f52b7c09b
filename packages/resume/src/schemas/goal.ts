import { z } from "zod";
import { LIMITS } from "../limits.ts";
import { datePrecision, datePrecisionOutput, optionalDate, requiredString } from "./fields.ts";

export const GOAL_CATEGORIES = ["career", "personal", "learning"] as const;
export const GOAL_STATUSES = ["active", "achieved", "abandoned"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** Allowed status moves; keeping the same status is not a move and always allowed. */
export const GOAL_MOVES: Record<GoalStatus, readonly GoalStatus[]> = {
  active: ["achieved", "abandoned"],
  achieved: ["active"],
  abandoned: ["active"],
};

/** What a new goal without a status gets: the editor shows it selected. */
export const DEFAULT_GOAL_STATUS = "active" satisfies GoalStatus;

export const goalShape = {
  description: requiredString(LIMITS.textLength),
  category: z.enum(GOAL_CATEGORIES),
  target_date: optionalDate(),
  date_precision: datePrecision(),
  status: z.enum(GOAL_STATUSES).default(DEFAULT_GOAL_STATUS),
};

export const goalOutput = {
  description: z.string(),
  category: z.enum(GOAL_CATEGORIES),
  target_date: z.iso.date().nullable(),
  date_precision: datePrecisionOutput(),
  status: z.enum(GOAL_STATUSES),
};
