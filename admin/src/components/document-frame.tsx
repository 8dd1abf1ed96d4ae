import { useEffect, useState } from 'preact/hooks';
import { Loading, LoadError } from './states';

/**
 * A PDF from the API shown inline: fetched with the key (never put in an address), shown from a
 * `blob:` URL in a frame (the panel's CSP allows `frame-src blob:` only), with a download link.
 */
export function DocumentFrame({ load, title, filename }: { load: () => Promise<Blob>; title: string; filename: string }) {
  const [url, setUrl] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let objectUrl: string | undefined;
    let live = true;
    setError(undefined);
    setUrl(undefined);
    load()
      .then((blob) => {
        if (!live) return;
        objectUrl = URL.createObjectURL(blob.type ? blob : new Blob([blob], { type: 'application/pdf' }));
        setUrl(objectUrl);
      })
      .catch((caught: unknown) => live && setError(caught));
    return () => {
      live = false;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [attempt]);

  if (error !== undefined) return <LoadError error={error} what={title.toLowerCase()} onRetry={() => setAttempt((n) => n + 1)} />;
  if (!url) return <Loading label={`Loading ${title.toLowerCase()}…`} />;
  return (
    <div class="document">
      <iframe class="document-frame" src={url} title={title} />
      <p class="document-actions">
        <a class="btn btn-secondary btn-small" href={url} download={filename}>
          Download {filename}
        </a>
        <a class="btn btn-secondary btn-small" href={url} target="_blank" rel="noopener">
          Open in a new tab
        </a>
      </p>
    </div>
  );
}

/** Saves a Blob from the API as a file (the e-invoice XML). */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}
