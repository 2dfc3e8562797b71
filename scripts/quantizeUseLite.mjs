// Writes USE-lite's weights with every large float32 tensor quantised to uint8 (TF.js's own
// `quantization` format: value = byte * scale + min, decoded by tf.loadGraphModel), so the packaged
// model is 7 MB instead of 28 MB: the float32 shards alone would put the .vsix over its budget.
// Embeddings stay within cosine 0.99 of the float32 model's (test/embedding/quantizedUseLite.test.ts).
// Usage: node scripts/quantizeUseLite.mjs <model.json in> <out dir>
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Tensors smaller than this (biases, norms, shapes) stay float32: they weigh nothing and steer a lot. */
const MIN_ELEMENTS = 4096;
/** The shard size TF.js's converter writes. */
const SHARD_BYTES = 4 * 1024 * 1024;

/** uint8 affine parameters with 0 exactly representable, as TF.js's converter chooses them. */
function quantize(values) {
  let min = 0;
  let max = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const scale = max === min ? 1 : (max - min) / 255;
  const zeroPoint = Math.round(-min / scale);
  const nudgedMin = -zeroPoint * scale;
  const bytes = new Uint8Array(values.length);
  for (let i = 0; i < values.length; i++)
    bytes[i] = Math.min(255, Math.max(0, Math.round((values[i] - nudgedMin) / scale)));
  return { bytes, quantization: { dtype: 'uint8', min: nudgedMin, scale } };
}

export function quantizeUseLite(modelJsonPath, outDir) {
  const model = JSON.parse(readFileSync(modelJsonPath, 'utf8'));
  const [group, ...others] = model.weightsManifest;
  if (!group || others.length > 0) throw new Error(`${modelJsonPath}: expected one weights group`);
  const weightsDir = path.dirname(modelJsonPath);
  const buffer = Buffer.concat(group.paths.map((p) => readFileSync(path.join(weightsDir, p))));
  const parts = [];
  const weights = [];
  let offset = 0;
  for (const spec of group.weights) {
    if (spec.quantization) throw new Error(`${spec.name} is already quantised`);
    const count = spec.shape.reduce((a, b) => a * b, 1);
    const size = count * 4; // float32 and int32 only, checked below
    if (spec.dtype !== 'float32' && spec.dtype !== 'int32')
      throw new Error(`${spec.name}: dtype ${spec.dtype}`);
    const raw = buffer.subarray(offset, offset + size);
    offset += size;
    if (spec.dtype === 'float32' && count >= MIN_ELEMENTS) {
      const values = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + size));
      const { bytes, quantization } = quantize(values);
      parts.push(bytes);
      weights.push({ ...spec, quantization });
    } else {
      parts.push(raw);
      weights.push(spec);
    }
  }
  if (offset !== buffer.length)
    throw new Error(`${modelJsonPath}: ${buffer.length - offset} bytes unaccounted`);
  const all = Buffer.concat(parts);
  const shardCount = Math.ceil(all.length / SHARD_BYTES);
  const paths = [];
  mkdirSync(outDir, { recursive: true });
  for (let i = 0; i < shardCount; i++) {
    const name = `group1-shard${i + 1}of${shardCount}`;
    writeFileSync(path.join(outDir, name), all.subarray(i * SHARD_BYTES, (i + 1) * SHARD_BYTES));
    paths.push(name);
  }
  model.weightsManifest = [{ paths, weights }];
  writeFileSync(path.join(outDir, 'model.json'), JSON.stringify(model));
  return { bytes: all.length, shards: shardCount };
}

if (process.argv[1] === import.meta.filename) {
  const [modelJson, outDir] = process.argv.slice(2);
  if (!modelJson || !outDir)
    throw new Error('usage: node scripts/quantizeUseLite.mjs <model.json> <out dir>');
  console.log(quantizeUseLite(modelJson, outDir));
}
