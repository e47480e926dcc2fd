import type Sharp from "sharp";

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips), loaded when a picture is first read or made: about 10 MB resident that a process serving pages
 * without handling a picture does not carry (issue 23's idle memory). Every caller is already asynchronous.
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import("sharp").then((module) => module.default);
  return loading;
}
