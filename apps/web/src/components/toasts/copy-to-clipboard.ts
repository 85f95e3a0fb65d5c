import { showErrorToast, showSuccessToast } from './toasts';

/**
 * Copies text and says so with a toast (settings §8: 'Clipboard not available', 'Failed to copy
 * to clipboard'); for features other than tokens, which keeps its own.
 */
export async function copyToClipboard(text: string, successMessage: string): Promise<boolean> {
  if (!navigator.clipboard) {
    showErrorToast('Clipboard not available');
    return false;
  }
  try {
    await navigator.clipboard.writeText(text);
    showSuccessToast(successMessage);
    return true;
  } catch {
    showErrorToast('Failed to copy to clipboard');
    return false;
  }
}
