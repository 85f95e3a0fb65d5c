import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';

/** Copies text and says so (settings §8: 'Clipboard not available', 'Failed to copy to clipboard'). */
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
