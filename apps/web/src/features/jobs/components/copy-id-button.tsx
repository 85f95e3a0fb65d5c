import { Copy } from 'lucide-react';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';

/** Copies a resource id; settings §2.1 and §8 messages. */
export async function copyId(id: string): Promise<void> {
  if (!navigator.clipboard) {
    showErrorToast('Clipboard not available');
    return;
  }
  try {
    await navigator.clipboard.writeText(id);
    showSuccessToast(`Copied ${id} to clipboard`);
  } catch {
    showErrorToast('Failed to copy to clipboard');
  }
}

export function CopyIdButton({ id }: { id: string }) {
  return (
    <button
      type="button"
      aria-label={`Copy ${id}`}
      title="Copy id"
      onClick={(event) => {
        event.stopPropagation();
        void copyId(id);
      }}
      className="rounded p-1 text-gray-400 hover:bg-gray-100 hover:text-gray-700"
    >
      <Copy className="size-3.5" aria-hidden />
    </button>
  );
}
