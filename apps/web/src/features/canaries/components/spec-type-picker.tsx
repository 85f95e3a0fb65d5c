import { ResourceIcon } from '../../../components/resource-icon/resource-icon';
import { SPEC_TYPES, type SpecType } from '../lib/spec-types';

/** Settings §2.4: a grid of check types, each with an icon and a label. */
export function SpecTypePicker({ onChoose }: { onChoose(type: SpecType): void }) {
  return (
    <div role="group" aria-label="Check type" className="flex flex-col gap-2">
      <p className="text-sm text-gray-700">Choose the type of health check</p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {SPEC_TYPES.map((type) => (
          <button
            key={type.key}
            type="button"
            onClick={() => onChoose(type)}
            className="flex flex-col items-center gap-2 rounded-md border border-gray-200 p-3 text-sm hover:border-blue-400 hover:bg-blue-50"
          >
            <ResourceIcon type={type.key} className="size-6 text-gray-700" />
            {type.label}
          </button>
        ))}
      </div>
    </div>
  );
}
