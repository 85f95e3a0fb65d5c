/**
 * `SemverCompare(version, constraint)`: whether a semantic version satisfies a constraint
 * (`>=1.2.0`, `~1.2`, `^1.0.0`, `1.x`, comparisons joined by `,` or spaces, alternatives by `||`).
 */
import { CelScalar, celFunc, type CelFunc } from '@bufbuild/cel';

interface Version {
  major: number;
  minor: number;
  patch: number;
  prerelease: string;
}

function parseVersion(text: string): Version {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    text.trim(),
  );
  if (!match) throw new Error(`invalid semantic version "${text}"`);
  return {
    major: Number(match[1]),
    minor: Number(match[2] ?? 0),
    patch: Number(match[3] ?? 0),
    prerelease: match[4] ?? '',
  };
}

export function compareVersions(a: Version, b: Version): number {
  for (const key of ['major', 'minor', 'patch'] as const) if (a[key] !== b[key]) return a[key] - b[key];
  if (a.prerelease === b.prerelease) return 0;
  if (a.prerelease === '') return 1;
  if (b.prerelease === '') return -1;
  return a.prerelease < b.prerelease ? -1 : 1;
}

function satisfiesOne(version: Version, term: string): boolean {
  const match =
    /^(>=|<=|!=|==|=|>|<|~|\^)?\s*v?([0-9xX*]+(?:\.[0-9xX*]+)?(?:\.[0-9xX*]+)?(?:-[0-9A-Za-z.-]+)?)$/.exec(
      term.trim(),
    );
  if (!match) throw new Error(`invalid semver constraint "${term}"`);
  const operator = match[1] ?? '=';
  const parts = match[2].split('-')[0].split('.');
  const wildcard = parts.findIndex((part) => /^[xX*]$/.test(part));
  const given = wildcard === -1 ? parts.length : wildcard;
  const target = parseVersion(
    parts.map((part) => (/^[xX*]$/.test(part) ? '0' : part)).join('.') +
      (match[2].includes('-') ? `-${match[2].split('-').slice(1).join('-')}` : ''),
  );
  const comparison = compareVersions(version, target);
  const upper = (level: number): Version =>
    level <= 0
      ? { major: Infinity, minor: 0, patch: 0, prerelease: '' }
      : level === 1
        ? { major: target.major + 1, minor: 0, patch: 0, prerelease: '' }
        : { major: target.major, minor: target.minor + 1, patch: 0, prerelease: '' };
  if ((operator === '=' || operator === '==') && given < 3)
    return comparison >= 0 && compareVersions(version, upper(given)) < 0;
  switch (operator) {
    case '=':
    case '==':
      return comparison === 0;
    case '!=':
      return comparison !== 0;
    case '>':
      return comparison > 0;
    case '<':
      return comparison < 0;
    case '>=':
      return comparison >= 0;
    case '<=':
      return comparison <= 0;
    case '~':
      return comparison >= 0 && compareVersions(version, upper(given === 1 ? 1 : 2)) < 0;
    case '^': {
      const level = target.major > 0 ? 1 : target.minor > 0 || given < 3 ? 2 : 3;
      if (level === 3) return comparison === 0;
      return comparison >= 0 && compareVersions(version, upper(level)) < 0;
    }
    default:
      return false;
  }
}

export function semverSatisfies(versionText: string, constraint: string): boolean {
  const version = parseVersion(versionText);
  return constraint.split('||').some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|!=|==|=|>|<|~|\^)\s+/g, '$1')
      .split(/[\s,]+/)
      .filter((term) => term !== '')
      .every((term) => satisfiesOne(version, term)),
  );
}

export const SEMVER_FUNCTIONS: CelFunc[] = [
  celFunc('SemverCompare', [CelScalar.STRING, CelScalar.STRING], CelScalar.BOOL, semverSatisfies),
];
