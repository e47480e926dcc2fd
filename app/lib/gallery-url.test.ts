import { describe, expect, it } from "vitest";
import { galleryHref, isLightboxStep } from "./gallery-url.ts";

const at = (path: string) => new URL(path, "http://site.test");

describe("galleryHref", () => {
  it("leaves out empty values and the first page", () => {
    expect(galleryHref({})).toBe("/");
    expect(galleryHref({ page: 1, category: "", image: null })).toBe("/");
    expect(galleryHref({ category: "City & Sea", page: 3 })).toBe("/?category=City+%26+Sea&page=3");
    expect(galleryHref({ category: "Nature", image: "abc" })).toBe("/?category=Nature&image=abc");
  });
});

describe("isLightboxStep", () => {
  it("is true for opening, moving and closing within the same filter", () => {
    expect(isLightboxStep(at("/"), at("/?image=a"))).toBe(true);
    expect(isLightboxStep(at("/?image=a"), at("/?image=b"))).toBe(true);
    expect(isLightboxStep(at("/?image=b"), at("/"))).toBe(true);
    expect(isLightboxStep(at("/?category=City&page=2"), at("/?category=City&image=a"))).toBe(true);
    expect(isLightboxStep(at("/?category=City&image=a"), at("/?category=City&page=2"))).toBe(true);
  });

  it("is false for anything that needs other pictures or another page", () => {
    expect(isLightboxStep(at("/"), at("/?page=2"))).toBe(false);
    expect(isLightboxStep(at("/?image=a"), at("/?category=City&image=a"))).toBe(false);
    expect(isLightboxStep(at("/?image=a"), at("/home"))).toBe(false);
    expect(isLightboxStep(at("/home?image=a"), at("/home"))).toBe(false);
    expect(isLightboxStep(at("/?image=a"), at("/?image=a&lang=de"))).toBe(false);
    expect(isLightboxStep(at("/?image=a"), at("/?image=a"))).toBe(false);
  });
});
