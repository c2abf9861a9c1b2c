// Handing a finished file to the browser from script. A download: a hidden link with `download`,
// clicked (the file's own name, from Content-Disposition, wins over the link's; the page stays
// where it is). A document to view (the PDF report): opened in a new window, or shown in this one.
export function startDownload(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = '';
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Opens `href` in a new window (from a click: a blocker lets it through). The new window gets no
 * handle on this one. False when it was blocked.
 */
export function openInNewWindow(href: string): boolean {
  const w = window.open(href, '_blank');
  if (!w) return false;
  try {
    w.opener = null;
  } catch {
    // A window of another origin: nothing to cut.
  }
  return true;
}

/** Shows `href` in this window in place of the current page (Back skips the page left). */
export function showHere(href: string): void {
  window.location.replace(href);
}
