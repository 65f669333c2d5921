import { useState } from 'react';
import { Button } from './Button';

/** Copies `text` to the clipboard; reads 'Copied!' for two seconds after. `label` names what is copied. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // Clipboard refused (permissions, insecure origin): the text stays selectable in its field.
      setCopied(false);
    }
  }
  return (
    <Button variant="outline" size="sm" onClick={copy} aria-label={copied ? `${label} copied` : `Copy ${label}`}>
      {copied ? 'Copied!' : 'Copy'}
    </Button>
  );
}
