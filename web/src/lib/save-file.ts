/** Hands a file held in memory to the browser's download, under `fileName`. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the browser reads the URL before this next task.
  setTimeout(() => URL.revokeObjectURL(url));
}
