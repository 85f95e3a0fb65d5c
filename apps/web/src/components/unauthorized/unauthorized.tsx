import { ShieldAlert } from 'lucide-react';

export const UNAUTHORIZED_MESSAGE = 'Unauthorized - You do not have permission to access this page';

/** Shown in place of a page the user may not read (core §2, settings §2.10). */
export function Unauthorized() {
  return (
    <div role="alert" className="flex flex-col items-center justify-center gap-3 p-12 text-center">
      <ShieldAlert className="size-10 text-red-500" aria-hidden />
      <p className="text-base font-medium text-gray-800">{UNAUTHORIZED_MESSAGE}</p>
    </div>
  );
}
