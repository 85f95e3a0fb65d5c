import type { ReactNode } from 'react';

/** Full-page frame of the sign-in screens: the product logo with a title (spec core §1). */
export function AuthLayout({
  title,
  children,
  wide = false,
}: {
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-gray-50 px-4 py-12">
      <div className={wide ? 'w-full max-w-2xl' : 'w-full max-w-md'}>
        <div className="mb-6 flex flex-col items-center gap-3">
          <img src="/favicon.svg" alt="Opsdeck" className="h-12 w-12" />
          <h1 className="text-center text-2xl font-semibold text-gray-900">{title}</h1>
        </div>
        <div className="flex flex-col gap-6 rounded-lg bg-white p-6 shadow">{children}</div>
      </div>
    </div>
  );
}

/** 'Go back': the previous page of this tab, or home when there is none. */
export function GoBackButton({ fallback = '/' }: { fallback?: string }) {
  return (
    <button
      type="button"
      className="self-start text-sm font-medium text-blue-600 hover:underline"
      onClick={() => {
        if (window.history.length > 1) window.history.back();
        else window.location.assign(fallback);
      }}
    >
      Go back
    </button>
  );
}
