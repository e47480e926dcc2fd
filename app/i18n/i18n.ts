import type { Dictionary, MessageKey } from "./en.ts";

export type { Dictionary, MessageKey };
export const languages = ["en", "de"] as const;
export type Language = (typeof languages)[number];
export const DEFAULT_LANGUAGE: Language = "en";

export function isLanguage(value: unknown): value is Language {
  return value === "en" || value === "de";
}

export type TranslateWith<Key extends string> = (key: Key, params?: Record<string, string | number>) => string;
export type Translate = TranslateWith<MessageKey>;

export function createTranslator<Key extends string = MessageKey>(dictionary: Record<Key, string>): TranslateWith<Key> {
  return (key, params) => {
    const text = dictionary[key] ?? key;
    if (!params) return text;
    return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match));
  };
}
