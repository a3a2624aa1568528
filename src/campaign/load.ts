/**
 * Loading a campaign folder: `campaign.json` plus the files it names.
 */
import path from 'node:path';
import { insideDir, safeName } from '../util/safe-path.js';
import { DOMAIN_NAMES, isDomainName } from '../domains/catalog.js';
import fs from 'node:fs';
import { z } from 'zod';
import { CampaignCaseSchema, CampaignSpecSchema, type CampaignCase, type CampaignSpec } from '../spec/campaign.js';
import { ReceiptSchema, type Receipt } from '../spec/receipt.js';
import { BadInputError } from '../spec/errors.js';
import { readJsonFile, readJsonLines, readTextFile } from '../util/json-file.js';

export interface PromptVariant {
  /** `initial` for the stable prompt, `automatic_candidate`, or a control id such as `manual`. */
  key: string;
  label: string;
  row_label: string;
  text: string;
  /** Absolute path of the file the text came from (none for the candidate). */
  file?: string;
}

export interface LoadedCampaign {
  dir: string;
  spec: CampaignSpec;
  cases: CampaignCase[];
  stable: PromptVariant;
  controls: PromptVariant[];
  judgeTemplate: string;
  codingSystem: string;
  codingUserTemplate: string;
  /** The recorded receipts, when the spec names a receipts file. */
  receipts?: Receipt[];
}

/**
 * Loads and validates a campaign folder (or a campaign spec file, whose folder holds the files it names). Throws {@link BadInputError} naming the file and JSON
 * path of the first problem (missing file, invalid JSON, schema violation, duplicate case id).
 */
export function loadCampaign(dirOrFile: string): LoadedCampaign {
  const isFile = fs.existsSync(dirOrFile) && fs.statSync(dirOrFile).isFile();
  const dir = isFile ? path.dirname(dirOrFile) : dirOrFile;
  const specFile = isFile ? dirOrFile : path.join(dir, 'campaign.json');
  const spec = readJsonFile(specFile, CampaignSpecSchema);
  // Every file the spec names must stay inside the campaign folder; the name becomes a work-folder name.
  safeName(spec.name, 'campaign name', { file: specFile, path: '$.name' });
  if (!isDomainName(spec.domain)) throw new BadInputError(`unknown domain '${spec.domain}' (known: ${DOMAIN_NAMES.join(', ')})`, { file: specFile, path: '$.domain' });
  const at = (rel: string, where: string) => insideDir(dir, rel, 'file', { file: specFile, path: where });
  const casesFile = at(spec.cases_file, '$.cases_file');
  const cases = readJsonFile(casesFile, z.array(CampaignCaseSchema).min(1));
  const seen = new Set<string>();
  cases.forEach((c, i) => {
    if (seen.has(c.id)) throw new BadInputError(`duplicate case id '${c.id}'`, { file: casesFile, path: `$[${i}].id` });
    seen.add(c.id);
  });
  const prompt = (key: string, ref: { file: string; label: string; row_label: string }, where: string): PromptVariant => ({
    key,
    label: ref.label,
    row_label: ref.row_label,
    text: readTextFile(at(ref.file, where)),
    file: at(ref.file, where),
  });
  return {
    dir: path.resolve(dir),
    spec,
    cases,
    stable: prompt('initial', spec.prompts.stable, '$.prompts.stable.file'),
    controls: spec.prompts.controls.map((c, i) => prompt(c.id, c, `$.prompts.controls[${i}].file`)),
    judgeTemplate: readTextFile(at(spec.judge.template_file, '$.judge.template_file')),
    codingSystem: readTextFile(at(spec.coding_agent.system_file, '$.coding_agent.system_file')),
    codingUserTemplate: readTextFile(at(spec.coding_agent.user_template_file, '$.coding_agent.user_template_file')),
    receipts: spec.receipts_file ? readJsonLines(at(spec.receipts_file, '$.receipts_file'), ReceiptSchema) : undefined,
  };
}
