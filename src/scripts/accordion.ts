/** One open item at a time in each `[data-accordion]`, for browsers without exclusive `<details name>`. */
for (const accordion of document.querySelectorAll<HTMLElement>('[data-accordion]')) {
  const items = [...accordion.querySelectorAll<HTMLDetailsElement>(':scope > details')];
  for (const item of items) {
    item.addEventListener('toggle', () => {
      if (!item.open) return;
      for (const other of items) if (other !== item && other.open) other.open = false;
    });
  }
}
