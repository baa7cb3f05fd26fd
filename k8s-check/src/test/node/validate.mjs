// Validates every object of the given multi-document YAML files against the Kubernetes schema,
// offline, with the models of the npm package kubernetes-models.
// Usage: node validate.mjs FILE...   Exit: 0 all valid, 1 some object invalid, 2 bad input or usage.
// Output: one line per object, "OK <file> <apiVersion> <kind>/<name>" or
// "INVALID <file> doc <n> <apiVersion> <kind>/<name>: <json path> <message>" (one line per error).
import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node validate.mjs FILE...');
  process.exit(2);
}

const modelModules = new Map();
async function modelClass(apiVersion, kind) {
  // "v1" -> kubernetes-models/v1, "apps/v1" -> kubernetes-models/apps/v1
  if (typeof apiVersion !== 'string' || !/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) return undefined;
  if (!modelModules.has(apiVersion)) {
    let mod;
    try {
      mod = await import(`kubernetes-models/${apiVersion}`);
    } catch {
      mod = null;
    }
    modelModules.set(apiVersion, mod);
  }
  const mod = modelModules.get(apiVersion);
  return mod && typeof mod[kind] === 'function' ? mod[kind] : undefined;
}

function describeError(err) {
  const where = err.instancePath || '/';
  const params = err.params || {};
  let what = err.message;
  if (!what) {
    switch (err.keyword) {
      case 'required': what = `must have required property ${params.missingProperty}`; break;
      case 'type': what = `must be ${params.type}`; break;
      case 'enum': what = `must be one of ${JSON.stringify(params.allowedValues)}`; break;
      case 'format': what = `must match format ${params.format}`; break;
      default: what = `fails ${err.keyword} ${JSON.stringify(params)}`;
    }
  }
  return `${where} ${what}`;
}

let invalid = 0;
let bad = 0;
let objects = 0;
for (const file of files) {
  let text;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    console.log(`ERROR ${file}: cannot read: ${e.message}`);
    bad++;
    continue;
  }
  const docs = parseAllDocuments(text);
  let n = 0;
  for (const doc of docs) {
    n++;
    if (doc.errors && doc.errors.length > 0) {
      for (const e of doc.errors) console.log(`ERROR ${file} doc ${n}: YAML: ${e.message.split('\n')[0]}`);
      bad++;
      continue;
    }
    const obj = doc.toJS();
    if (obj === null || obj === undefined) continue; // empty document
    const label = `${obj.apiVersion} ${obj.kind}/${obj.metadata?.name}`;
    if (typeof obj !== 'object' || Array.isArray(obj)) {
      console.log(`INVALID ${file} doc ${n}: not a Kubernetes object (a YAML mapping)`);
      invalid++;
      continue;
    }
    objects++;
    const errors = [];
    if (!obj.metadata || typeof obj.metadata.name !== 'string' || obj.metadata.name === '') {
      errors.push('/metadata/name must be a non-empty string');
    }
    const Model = await modelClass(obj.apiVersion, obj.kind);
    if (!Model) {
      errors.push(`/ no schema for apiVersion ${JSON.stringify(obj.apiVersion)} kind ${JSON.stringify(obj.kind)} (unknown or misspelt)`);
    } else {
      try {
        new Model(obj).validate();
      } catch (e) {
        if (Array.isArray(e.errors) && e.errors.length > 0) {
          for (const err of e.errors) errors.push(describeError(err));
        } else {
          errors.push(`/ ${e.message}`);
        }
      }
    }
    if (errors.length === 0) {
      console.log(`OK ${file} ${label}`);
    } else {
      invalid++;
      for (const err of errors) console.log(`INVALID ${file} doc ${n} ${label}: ${err}`);
    }
  }
}
console.log(`SUMMARY objects=${objects} invalid=${invalid} errors=${bad}`);
process.exit(bad > 0 ? 2 : invalid > 0 ? 1 : 0);
