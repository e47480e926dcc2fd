import QRCode from "qrcode";

/** What the enrolment page shows: the QR code (SVG drawn here, no outside service) and the key to type in. */
export type TwoFactorSetup = { uri: string; secret: string; qrSvg: string };

const BASE32 = /^[A-Z2-7]+=*$/;

/**
 * Reads an `otpauth://totp/…` URI as better-auth's plugin makes it (or as our confirm form sends it back), or null
 * when it is not one. Only the URI's own secret and labels are used: nothing else of the form reaches the page.
 */
export async function describeTotpUri(uri: string): Promise<TwoFactorSetup | null> {
  if (uri.length > 1000 || !uri.startsWith("otpauth://totp/")) return null;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  const secret = url.searchParams.get("secret") ?? "";
  if (!BASE32.test(secret) || secret.length < 16 || secret.length > 128) return null;
  // Dark modules on white whatever the theme: scanners read dark-on-light best.
  const qrSvg = await QRCode.toString(uri, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
    color: { dark: "#000000", light: "#ffffff" },
  });
  return { uri, secret, qrSvg };
}
