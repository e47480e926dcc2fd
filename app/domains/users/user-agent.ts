import Bowser from "bowser";

export type DeviceSummary = { browser: string; system: string };

/** Browser and system of a session's user agent, as people name them ("Firefox 128", "Windows 10"); "" when unknown. */
export function describeUserAgent(userAgent: string | null | undefined): DeviceSummary {
  if (!userAgent) return { browser: "", system: "" };
  const parser = Bowser.getParser(userAgent.slice(0, 1000));
  const browserName = parser.getBrowserName();
  const major = parser.getBrowserVersion()?.split(".")[0];
  const os = parser.getOS();
  const osName = os.name ?? "";
  const osVersion = os.versionName ?? os.version ?? "";
  return {
    browser: browserName ? `${browserName}${major ? ` ${major}` : ""}` : "",
    system: osName ? `${osName}${osVersion && !osVersion.startsWith(osName) ? ` ${osVersion}` : ""}` : "",
  };
}
