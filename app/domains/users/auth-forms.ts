import { z } from "zod";

const field = z.preprocess((value) => (typeof value === "string" ? value : ""), z.string().max(1000));

export const signInForm = z.object({
  intent: z.literal("sign-in"),
  email: field,
  password: field,
  redirectTo: field.optional(),
});

export const signUpForm = z.object({
  intent: z.literal("sign-up"),
  email: field,
  password: field,
  inviteCode: field,
});

export const authForm = z.discriminatedUnion("intent", [signInForm, signUpForm]);
export type AuthForm = z.infer<typeof authForm>;
