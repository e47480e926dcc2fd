import { describe, expect, it } from "vitest";
import { describeUserAgent } from "./user-agent.ts";

describe("describeUserAgent", () => {
  it("names the browser with its major version and the system as people know them", () => {
    expect(
      describeUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0"),
    ).toEqual({ browser: "Firefox 128", system: "Windows 10" });
    expect(
      describeUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toEqual({ browser: "Safari 17", system: "iOS 17.5" });
    expect(
      describeUserAgent(
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      ),
    ).toEqual({ browser: "Chrome 131", system: "Linux" });
  });

  it("says nothing it does not know", () => {
    expect(describeUserAgent(null)).toEqual({ browser: "", system: "" });
    expect(describeUserAgent("")).toEqual({ browser: "", system: "" });
    expect(describeUserAgent("curl/8.0")).toEqual({ browser: "", system: "" });
    expect(describeUserAgent("x".repeat(100_000)).browser).toBe("");
  });
});
