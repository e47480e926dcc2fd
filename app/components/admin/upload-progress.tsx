import { useAdminTranslate } from "#app/lib/admin-data.ts";

/** How an upload ended: the server's answer (status and parsed JSON body, or null), a failed connection, or a cancel. */
export type UploadEnd =
  | { kind: "answered"; status: number; body: unknown }
  | { kind: "failed" }
  | { kind: "cancelled" };

export type UploadRequest = {
  /** Settles once the upload ended; never rejects. */
  done: Promise<UploadEnd>;
  /** Stops the upload: the server sees the connection end and keeps nothing. */
  cancel: () => void;
};

/**
 * Sends a form with XMLHttpRequest (fetch reports no upload progress): `onProgress` gets the percentage of
 * the body sent so far, 100 once all of it is sent (the server may still be processing then).
 */
export function sendWithProgress(url: string, form: FormData, onProgress: (percent: number) => void): UploadRequest {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadEnd>((resolve) => {
    xhr.open("POST", url);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.upload.onload = () => onProgress(100);
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ kind: "answered", status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ kind: "failed" });
    xhr.onabort = () => resolve({ kind: "cancelled" });
    xhr.send(form);
  });
  return { done, cancel: () => xhr.abort() };
}

/** A labelled progress bar with its percentage written beside it ("42 %"). */
export function UploadProgressBar({
  percent,
  label,
  className = "",
}: {
  percent: number;
  label: string;
  className?: string;
}) {
  const t = useAdminTranslate();
  const text = t("admin.upload.percent", { percent });
  return (
    <div className={`flex items-center gap-3 ${className}`}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
        className="h-2 min-w-0 flex-1 overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-700"
      >
        <div
          className="h-full rounded-full bg-indigo-700 transition-[width] dark:bg-indigo-400"
          style={{ width: `${percent}%` }}
        />
      </div>
      <span aria-hidden="true" className="w-12 shrink-0 text-right text-sm tabular-nums">
        {text}
      </span>
    </div>
  );
}
