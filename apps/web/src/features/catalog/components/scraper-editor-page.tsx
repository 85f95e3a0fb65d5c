import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/button/button';
import { CodeEditor } from '../../../components/code-editor/code-editor';
import { FieldError, FormField } from '../../../components/form-field/form-field';
import { validationResolver } from '../../../components/form-field/validation-resolver';
import { Input } from '../../../components/input/input';
import { JobHistoryTable } from '../../../components/job-history-table/job-history-table';
import {
  ResourceEditor,
  SpecViewTabs,
  useResourceEditorTab,
  type SpecView,
} from '../../../components/resource-editor/resource-editor';
import { deleteAction, ResourceEditorRoute } from '../../../components/resource-editor/resource-editor-route';
import { Textarea } from '../../../components/textarea/textarea';
import { showErrorToast, showSuccessToast } from '../../../components/toasts/toasts';
import { ApiError } from '../../../lib/api-client';
import { useCan } from '../../../lib/permissions';
import {
  useDeleteScraper,
  useRunScraper,
  useSaveScraper,
  useScrapeConfigSchema,
  useScraper,
  type ScraperDetail,
} from '../api/scrapers';
import {
  scraperToForm,
  validateScraperForm,
  type ScraperFormValues,
  type ScraperInput,
} from '../lib/scraper-form';
import { detectScraperSpecType, type ScraperSpecType } from '../lib/scraper-spec-types';
import { ScraperSpecForm, ScraperTypePicker } from './scraper-spec-form';
import { SCRAPERS_PATH, scraperPath } from './scrapers-page';

/** Id segment of the editor for a scraper that does not exist yet. */
export const NEW_SCRAPER_ID = 'new';

/** A new scraper needs a name; a saved one keeps its own. */
const scraperResolver = validationResolver(
  (values: ScraperFormValues, context: { isNew: boolean } | undefined) =>
    validateScraperForm(values, context ?? { isNew: true }),
);

function ScraperForm({ scraper }: { scraper: ScraperDetail | undefined }) {
  const navigate = useNavigate();
  const canWrite = useCan('config_scrapers', 'write');
  const schema = useScrapeConfigSchema();
  const {
    register,
    control,
    handleSubmit,
    setValue,
    formState: { errors },
  } = useForm<ScraperFormValues, { isNew: boolean }, ScraperInput>({
    resolver: scraperResolver,
    context: { isNew: !scraper },
    defaultValues: scraperToForm(scraper),
  });
  const specText = useWatch({ control, name: 'spec' });
  const setSpecText = (text: string) => setValue('spec', text, { shouldValidate: errors.spec !== undefined });
  // Settings §4 "Spec editor": an existing spec's type comes from its first source key; a new
  // scraper starts at the type picker.
  const [specType, setSpecType] = useState<ScraperSpecType | undefined>(
    scraper ? detectScraperSpecType(scraper.spec) : undefined,
  );
  const [editorTab, setEditorTab] = useState<SpecView>(specType?.fields ? 'form' : 'code');
  const pickType = (type: ScraperSpecType | undefined) => {
    setSpecType(type);
    if (!type) return;
    setValue('spec', type.template);
    setEditorTab(type.fields ? 'form' : 'code');
  };
  const [problem, setProblem] = useState<{ message: string; field?: string }>();
  const [, setTab] = useResourceEditorTab();
  const save = useSaveScraper(scraper?.id);
  const remove = useDeleteScraper(scraper?.id ?? '');
  const run = useRunScraper(scraper?.id ?? '');

  const submit = handleSubmit((input) => {
    setProblem(undefined);
    save.mutate(input, {
      onSuccess: (saved) => {
        showSuccessToast(`${saved.name} updated successfully`);
        if (!scraper) void navigate(scraperPath(saved.id), { replace: true });
      },
      onError: (error) => {
        const body = error instanceof ApiError ? (error.body as { field?: string } | undefined) : undefined;
        setProblem({ message: error.message, field: body?.field });
        showErrorToast(error);
      },
    });
  });

  const runNow = () =>
    run.mutate(undefined, {
      onSuccess: (result) => {
        if (result.errors.length > 0)
          showErrorToast(`${scraper?.name ?? 'Scraper'} failed: ${result.errors.join('; ')}`);
        else showSuccessToast(`${scraper?.name ?? 'Scraper'} ran: ${result.status}`);
        void setTab('job-history');
      },
      onError: (error) => showErrorToast(error),
    });

  return (
    <ResourceEditor
      list={{ label: 'Scrapers', path: SCRAPERS_PATH }}
      name={scraper?.name}
      newLabel="New scraper"
      tabsLabel="Scraper"
      jobHistory={scraper && <JobHistoryTable resourceId={scraper.id} tableId="catalog-scraper-jobs" />}
      save={canWrite && specType ? { pending: save.isPending, onSave: () => void submit() } : undefined}
      extraActions={
        canWrite && (
          <Button onClick={runNow} disabled={run.isPending}>
            {run.isPending ? 'Running...' : 'Run Now'}
          </Button>
        )
      }
      remove={
        scraper && canWrite
          ? deleteAction({
              name: scraper.name,
              description: 'The scraper stops running; its items are marked deleted at the next reconcile.',
              pending: remove.isPending,
              run: (callbacks) => remove.mutate(undefined, callbacks),
              onDeleted: () => void navigate(SCRAPERS_PATH),
              onError: showErrorToast,
            })
          : undefined
      }
    >
      <div className="grid grid-cols-2 gap-3">
        <FormField label="Name" error={errors.name?.message}>
          <Input compact {...register('name')} disabled={Boolean(scraper) || !canWrite} />
        </FormField>
        <FormField label="Namespace">
          <Input compact {...register('namespace')} disabled={Boolean(scraper) || !canWrite} />
        </FormField>
      </div>
      <FormField label="Labels" error={errors.labels?.message}>
        <Textarea code rows={3} {...register('labels')} readOnly={!canWrite} />
      </FormField>
      {!specType ? (
        <section aria-label="Choose a spec type" className="flex flex-col gap-2">
          <h3 className="text-sm font-medium text-gray-700">Spec type</h3>
          <ScraperTypePicker onPick={pickType} />
        </section>
      ) : (
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-3 text-sm">
            {!scraper && (
              <button
                type="button"
                onClick={() => pickType(undefined)}
                className="text-blue-700 hover:underline"
              >
                ← Back
              </button>
            )}
            <span className="font-medium text-gray-800">{specType.label}</span>
            {specType.fields && <SpecViewTabs view={editorTab} onChange={setEditorTab} />}
          </div>
          {specType.fields && editorTab === 'form' ? (
            <ScraperSpecForm
              type={specType}
              specText={specText}
              onChange={setSpecText}
              readOnly={!canWrite}
            />
          ) : (
            <CodeEditor
              label="Spec"
              value={specText}
              onChange={setSpecText}
              language="yaml"
              schema={schema.data}
              readOnly={!canWrite}
              height="28rem"
            />
          )}
          <FieldError message={errors.spec?.message} />
        </div>
      )}
      {problem && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {problem.field && !problem.message.startsWith(problem.field) && (
            <span className="font-mono">{problem.field}: </span>
          )}
          {problem.message}
        </p>
      )}
    </ResourceEditor>
  );
}

/**
 * /catalog/scrapers/{id} (settings §2.4): Name, Namespace (fixed once created), Labels (JSON),
 * the spec (a type picker for a new scraper; File, HTTP, SQL and Exec with a Form tab beside the
 * YAML Code tab, checked against the ScrapeConfig schema), Update / Run Now / Cancel / Delete, and
 * the scraper's Job History. `/catalog/scrapers/new` creates one.
 */
export function ScraperEditorPage() {
  const { id = '' } = useParams();
  const isNew = id === NEW_SCRAPER_ID;
  const query = useScraper(id, !isNew);
  return (
    <ResourceEditorRoute isNew={isNew} query={query} loadingLabel="Loading scraper">
      {(scraper) => <ScraperForm scraper={scraper} />}
    </ResourceEditorRoute>
  );
}
