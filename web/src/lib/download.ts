// Starting a download from script: a hidden link with `download`, clicked. The file's own name
// (Content-Disposition) wins over the link's; the page stays where it is.
export function startDownload(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = '';
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
}
