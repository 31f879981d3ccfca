/** Hands text the browser made to the user as a downloaded file (an object URL on a link with `download`). */
export function downloadFile(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const link = document.createElement('a')
  link.href = URL.createObjectURL(new Blob([text], { type }))
  link.download = fileName
  link.click()
  // After the click has handed the file over: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(link.href), 0)
}
