import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { PlaybookGitopsActionResult } from '@opsdeck/contracts';
import YAML, { isCollection, isScalar, type Document } from 'yaml';
import { cloneInto, displayUrl, gitRemoteOf, insideRoot, runGit, textOf, type GitRemote } from './git.js';
import { ActionFailure, type ActionOutcome, type PlaybookActionType } from './types.js';

/** The special file content that deletes the file (the ecosystem's `$delete`). */
export const DELETE_DIRECTIVE = '$delete';
const DEFAULT_AUTHOR = 'Opsdeck';
const DEFAULT_EMAIL = 'opsdeck@localhost';

type Block = Record<string, unknown>;

function blockOf(value: unknown, field: string, required: boolean): Block {
  if (value === undefined || value === null) {
    if (required) throw new ActionFailure(`${field} is required`);
    return {};
  }
  if (typeof value !== 'object' || Array.isArray(value))
    throw new ActionFailure(`${field} must be a mapping`);
  return value as Block;
}

function listOf(value: unknown, field: string): Block[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new ActionFailure(`${field} must be a list`);
  return value.map((item, index) => blockOf(item, `${field}[${index}]`, true));
}

/** Runs `jq -c expression` on one JSON value; exactly one value must come out. */
function runJq(expression: string, input: unknown, field: string, signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn('jq', ['-c', expression], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const onAbort = () => child.kill('SIGKILL');
    signal.addEventListener('abort', onAbort);
    child.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      reject(new ActionFailure(`${field}: jq: ${error.message} (patches need the jq program)`));
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      const text = Buffer.concat(out).toString('utf8').trim();
      if (code !== 0) {
        reject(
          new ActionFailure(`${field}: ${Buffer.concat(err).toString('utf8').trim() || `jq exited ${code}`}`),
        );
        return;
      }
      const values = text === '' ? [] : text.split('\n');
      if (values.length !== 1) {
        reject(new ActionFailure(`${field}: the expression must give one value, it gave ${values.length}`));
        return;
      }
      resolve(JSON.parse(values[0]) as unknown);
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(JSON.stringify(input ?? null));
  });
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Brings a YAML document to `next` by changing only what differs, so comments and the layout of
 * untouched parts stay as they were.
 */
function syncDocument(doc: Document, at: (string | number)[], previous: unknown, next: unknown): void {
  if (JSON.stringify(previous) === JSON.stringify(next)) return;
  if (
    isPlainObject(previous) &&
    isPlainObject(next) &&
    (at.length === 0 ? isCollection(doc.contents) : true)
  ) {
    for (const key of Object.keys(previous)) if (!(key in next)) doc.deleteIn([...at, key]);
    for (const [key, value] of Object.entries(next)) {
      if (key in previous) syncDocument(doc, [...at, key], previous[key], value);
      else doc.setIn([...at, key], doc.createNode(value));
    }
    return;
  }
  if (Array.isArray(previous) && Array.isArray(next) && previous.length === next.length) {
    next.forEach((value, index) => syncDocument(doc, [...at, index], previous[index], value));
    return;
  }
  const node: unknown = at.length === 0 ? doc.contents : doc.getIn(at, true);
  if (isScalar(node) && (next === null || typeof next !== 'object')) {
    // The node keeps its comments and style; only its value changes.
    node.value = next;
    return;
  }
  if (at.length === 0) doc.contents = doc.createNode(next) as Document['contents'];
  else doc.setIn(at, doc.createNode(next));
}

/** Applies a jq/yq expression to one file: JSON files as JSON, any other file as (multi-document) YAML. */
async function patchFile(
  file: string,
  expression: string,
  field: string,
  signal: AbortSignal,
): Promise<boolean> {
  const before = await readFile(file, 'utf8');
  let after: string;
  if (file.endsWith('.json')) {
    let value: unknown;
    try {
      value = JSON.parse(before);
    } catch (error) {
      throw new ActionFailure(`${field}: ${path.basename(file)} is not JSON: ${(error as Error).message}`);
    }
    after = `${JSON.stringify(await runJq(expression, value, field, signal), null, 2)}\n`;
  } else {
    const docs = YAML.parseAllDocuments(before);
    const parts: string[] = [];
    for (const doc of docs) {
      if (doc.errors.length > 0)
        throw new ActionFailure(`${field}: ${path.basename(file)} is not YAML: ${doc.errors[0].message}`);
      const value: unknown = doc.toJS();
      syncDocument(doc, [], value, await runJq(expression, value, field, signal));
      parts.push(doc.toString());
    }
    after =
      parts.length > 1
        ? parts.map((part, index) => (index === 0 ? part : `---\n${part}`)).join('')
        : parts.join('');
  }
  if (after === before) return false;
  await writeFile(file, after);
  return true;
}

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index];
    if (char === '*' && glob[index + 1] === '*') {
      source += '.*';
      index++;
      if (glob[index + 1] === '/') index++;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The repository's kind for pull requests: `repo.type`, else told from the URL's host. */
function hostingOf(url: string, type: string | undefined): string | undefined {
  // `azuredevops`, `azure_devops`, `AzureDevOps`: one kind.
  if (type) return type.toLowerCase().replace(/[^a-z]/g, '');
  const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^/:]+)/i.exec(url)?.[1] ?? /^[^@]+@([^:]+):/.exec(url)?.[1] ?? '';
  if (host === 'github.com') return 'github';
  if (host.includes('gitlab')) return 'gitlab';
  if (host === 'dev.azure.com' || host === 'ssh.dev.azure.com' || host.endsWith('.visualstudio.com'))
    return 'azuredevops';
  return undefined;
}

/** `owner/repo` (GitHub) or `group/sub/project` (GitLab) of a repository URL. */
function repositoryPath(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    pathname = /^[^@/]+@[^:]+:(.*)$/.exec(url)?.[1] ?? url;
  }
  return pathname
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/, '');
}

type Hosting = 'github' | 'gitlab' | 'azuredevops';

/**
 * An Azure DevOps repository's organization, project and name, from
 * `https://dev.azure.com/{org}/{project}/_git/{repo}`, `https://{org}.visualstudio.com/{project}/_git/{repo}`
 * or `git@ssh.dev.azure.com:v3/{org}/{project}/{repo}`.
 */
export function azureRepositoryOf(url: string): {
  organization?: string;
  project: string;
  repository: string;
} {
  const parts = repositoryPath(url).split('/').map(decodeURIComponent);
  const at = parts.indexOf('_git');
  if (at >= 1 && at + 1 < parts.length)
    return { organization: parts[at - 2], project: parts[at - 1], repository: parts[at + 1] };
  if (parts[0] === 'v3' && parts.length >= 4)
    return { organization: parts[1], project: parts[2], repository: parts[3] };
  throw new ActionFailure(
    `gitops.repo.url: not an Azure DevOps repository URL ({organization}/{project}/_git/{repository}): ${displayUrl(url)}`,
  );
}

export interface PullRequestInput {
  hosting: Hosting;
  /** The API's base URL: `https://api.github.com`, `https://gitlab.example.com`, ... */
  apiUrl: string;
  repository: string;
  token: string | undefined;
  title: string;
  body: string;
  head: string;
  base: string;
  tags: string[];
  signal: AbortSignal;
}

async function callApi(
  what: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body: unknown; signal: AbortSignal },
): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method,
      headers: { 'content-type': 'application/json', accept: 'application/json', ...init.headers },
      body: JSON.stringify(init.body),
      signal: init.signal,
    });
  } catch (error) {
    throw new ActionFailure(`gitops: ${what} at ${new URL(url).origin}: ${(error as Error).message}`);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const message =
      typeof answer.message === 'string'
        ? answer.message
        : JSON.stringify(answer.message ?? answer.error ?? '');
    throw new ActionFailure(`gitops: ${what} answered ${response.status}${message ? `: ${message}` : ''}`);
  }
  return answer;
}

/** Opens a pull request (GitHub) or merge request (GitLab) from `head` into `base`. */
export async function createPullRequest(input: PullRequestInput): Promise<{ number: number; url: string }> {
  const api = input.apiUrl.replace(/\/+$/, '');
  if (!input.token)
    throw new ActionFailure('gitops: a pull request needs a token: repo.password or the connection');
  if (input.hosting === 'azuredevops') {
    // Azure DevOps Services REST 7.1: Pull Requests - Create, with a personal access token.
    const { project, repository } = azureRepositoryOf(input.repository);
    const created = await callApi(
      'Azure DevOps',
      `${api}/${encodeURIComponent(project)}/_apis/git/repositories/${encodeURIComponent(repository)}/pullrequests?api-version=7.1`,
      {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`:${input.token}`).toString('base64')}` },
        body: {
          sourceRefName: `refs/heads/${input.head}`,
          targetRefName: `refs/heads/${input.base}`,
          title: input.title,
          description: input.body,
          ...(input.tags.length > 0 ? { labels: input.tags.map((name) => ({ name })) } : {}),
        },
        signal: input.signal,
      },
    );
    const id = Number(created.pullRequestId);
    const webUrl = (created.repository as { webUrl?: unknown } | undefined)?.webUrl;
    return {
      number: id,
      url: typeof webUrl === 'string' ? `${webUrl}/pullrequest/${id}` : String(created.url ?? ''),
    };
  }
  if (input.hosting === 'github') {
    const [owner, name] = input.repository.split('/').slice(-2);
    const headers = {
      authorization: `Bearer ${input.token}`,
      accept: 'application/vnd.github+json',
      'x-github-api-version': '2022-11-28',
    };
    const created = await callApi('GitHub', `${api}/repos/${owner}/${name}/pulls`, {
      method: 'POST',
      headers,
      body: { title: input.title, head: input.head, base: input.base, body: input.body },
      signal: input.signal,
    });
    const number = Number(created.number);
    if (input.tags.length > 0) {
      await callApi('GitHub', `${api}/repos/${owner}/${name}/issues/${number}/labels`, {
        method: 'POST',
        headers,
        body: { labels: input.tags },
        signal: input.signal,
      });
    }
    return { number, url: String(created.html_url ?? '') };
  }
  const created = await callApi(
    'GitLab',
    `${api}/api/v4/projects/${encodeURIComponent(input.repository)}/merge_requests`,
    {
      method: 'POST',
      headers: { 'private-token': input.token },
      body: {
        source_branch: input.head,
        target_branch: input.base,
        title: input.title,
        description: input.body,
        ...(input.tags.length > 0 ? { labels: input.tags.join(',') } : {}),
      },
      signal: input.signal,
    },
  );
  return { number: Number(created.iid), url: String(created.web_url ?? '') };
}

function apiUrlOf(remoteUrl: string, hosting: Hosting, configured: string | undefined): string {
  if (configured) return configured;
  if (hosting === 'azuredevops') {
    const { organization } = azureRepositoryOf(remoteUrl);
    const host = /^[a-z]+:\/\/(?:[^@/]*@)?([^/:]+)/i.exec(remoteUrl)?.[1] ?? '';
    if (host.endsWith('.visualstudio.com')) return `https://${host}`;
    if (!organization)
      throw new ActionFailure('gitops.repo.apiURL is required: the URL names no organization');
    return `https://dev.azure.com/${encodeURIComponent(organization)}`;
  }
  let origin: string;
  try {
    origin = new URL(remoteUrl).origin;
  } catch {
    throw new ActionFailure(
      'gitops.repo.apiURL is required for a pull request on a repository without an http(s) URL',
    );
  }
  if (hosting === 'github')
    return origin === 'https://github.com' ? 'https://api.github.com' : `${origin}/api/v3`;
  return origin;
}

/**
 * `gitops`: clones `repo` (branch `base`, default main), creates or deletes `files`
 * (content `$delete` deletes), applies `patches` (jq/yq expressions on JSON or YAML files),
 * commits with `commit.author`, `commit.email` and `commit.message`, pushes to `repo.branch`
 * (default the base; `skipExisting` leaves an existing branch alone, `force` overwrites it) and,
 * with `pr`, opens a pull request on GitHub or a merge request on GitLab.
 */
export const gitopsAction: PlaybookActionType = {
  type: 'gitops',
  async run(spec, context) {
    const repo = blockOf(spec.repo, 'gitops.repo', true);
    const commit = blockOf(spec.commit, 'gitops.commit', true);
    const message = textOf(commit.message);
    if (!message) throw new ActionFailure('gitops.commit.message is required');
    const files = listOf(spec.files, 'gitops.files');
    const patches = listOf(spec.patches, 'gitops.patches');
    const pr = spec.pr === undefined || spec.pr === null ? undefined : blockOf(spec.pr, 'gitops.pr', true);
    const remote: GitRemote = await gitRemoteOf(repo, context, 'gitops.repo');
    const base = textOf(repo.base) ?? 'main';
    const branch = textOf(repo.branch) ?? base;
    const signal = AbortSignal.any([context.signal, AbortSignal.timeout(context.timeoutMs)]);
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-gitops-'));
    const dir = path.join(workDir, 'repo');
    const git = (args: string[], withRemote = false) =>
      runGit(args, { cwd: dir, signal, what: 'gitops', remote: withRemote ? remote : undefined });
    const summary = { url: displayUrl(remote.url), base, branch };
    try {
      await cloneInto(remote, dir, base, { cwd: workDir, signal, what: 'gitops' });
      if (branch !== base) {
        const existing = (await git(['ls-remote', '--heads', 'origin', `refs/heads/${branch}`], true)).trim();
        if (existing !== '' && repo.skipExisting === true)
          return {
            result: {
              ...summary,
              pushed: false,
              skipped: `branch ${branch} exists already`,
            } satisfies PlaybookGitopsActionResult,
          };
        if (existing !== '' && repo.force !== true) {
          await git(
            ['fetch', '--quiet', 'origin', `refs/heads/${branch}:refs/remotes/origin/${branch}`],
            true,
          );
          await git(['checkout', '--quiet', '-b', branch, `origin/${branch}`]);
        } else await git(['checkout', '--quiet', '-b', branch]);
      }
      const changed: string[] = [];
      for (const [index, file] of files.entries()) {
        const field = `gitops.files[${index}]`;
        const relative = textOf(file.path);
        if (!relative) throw new ActionFailure(`${field}.path is required`);
        const target = insideRoot(dir, relative, `${field}.path`);
        if (target === dir || target.startsWith(path.join(dir, '.git')))
          throw new ActionFailure(`${field}.path must name a file of the repository: ${relative}`);
        if (file.content === DELETE_DIRECTIVE) {
          await rm(target, { recursive: true, force: true });
        } else {
          await mkdir(path.dirname(target), { recursive: true });
          await writeFile(
            target,
            typeof file.content === 'string' ? file.content : String(file.content ?? ''),
          );
        }
        changed.push(relative);
      }
      if (patches.length > 0) {
        const tracked = (await git(['ls-files'])).split('\n').filter((line) => line !== '');
        for (const [index, patch] of patches.entries()) {
          const field = `gitops.patches[${index}]`;
          const pattern = textOf(patch.path);
          if (!pattern) throw new ActionFailure(`${field}.path is required`);
          const yq = textOf(patch.yq);
          const jq = textOf(patch.jq);
          if ((yq === undefined) === (jq === undefined))
            throw new ActionFailure(`${field} needs one of yq or jq`);
          const matcher = globToRegExp(pattern.replace(/^\.\//, ''));
          const matched = tracked.filter((file) => matcher.test(file));
          if (matched.length === 0)
            throw new ActionFailure(`${field}.path matches no file of the repository: ${pattern}`);
          for (const file of matched) {
            const target = insideRoot(dir, file, `${field}.path`);
            if (await patchFile(target, (yq ?? jq) as string, field, signal)) changed.push(file);
          }
        }
      }
      await git(['add', '--all']);
      const status = (await git(['status', '--porcelain'])).trim();
      if (status === '')
        return {
          result: {
            ...summary,
            changed: [],
            pushed: false,
            commit: null,
          } satisfies PlaybookGitopsActionResult,
        };
      const author = textOf(commit.author) ?? DEFAULT_AUTHOR;
      const email = textOf(commit.email) ?? DEFAULT_EMAIL;
      await git([
        '-c',
        `user.name=${author}`,
        '-c',
        `user.email=${email}`,
        'commit',
        '--quiet',
        '--author',
        `${author} <${email}>`,
        '-m',
        message,
      ]);
      const sha = (await git(['rev-parse', 'HEAD'])).trim();
      await git(
        [
          'push',
          '--quiet',
          ...(repo.force === true ? ['--force'] : []),
          'origin',
          `HEAD:refs/heads/${branch}`,
        ],
        true,
      );
      const result: PlaybookGitopsActionResult = {
        ...summary,
        changed: [...new Set(changed)],
        commit: sha,
        pushed: true,
      };
      if (pr) {
        const hosting = hostingOf(remote.url, textOf(repo.type));
        if (branch === base) {
          result.pullRequest = { created: false, reason: 'the branch is the base branch' };
        } else if (hosting !== 'github' && hosting !== 'gitlab' && hosting !== 'azuredevops') {
          result.pullRequest = {
            created: false,
            reason: 'pull requests are opened on GitHub, GitLab and Azure DevOps only (set repo.type)',
          };
        } else {
          const outcome: ActionOutcome = { result: { ...result } };
          try {
            const created = await createPullRequest({
              hosting,
              apiUrl: apiUrlOf(remote.url, hosting, textOf(repo.apiURL)),
              repository: hosting === 'azuredevops' ? remote.url : repositoryPath(remote.url),
              token: remote.password,
              title: textOf(pr.title) ?? message.split('\n')[0],
              body: message,
              head: branch,
              base,
              tags: Array.isArray(pr.tags) ? pr.tags.map(String) : [],
              signal,
            });
            result.pullRequest = { created: true, ...created };
          } catch (error) {
            if (error instanceof ActionFailure) throw new ActionFailure(error.message, outcome);
            throw error;
          }
        }
      }
      return { result: { ...result } };
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  },
};
