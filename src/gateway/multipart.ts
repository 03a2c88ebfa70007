// A multipart/form-data body (RFC 7578), built in memory: text fields and files. The field and file names are the
// extension's own (never a user's or a gateway's), and are still refused when they could break the framing.
import { randomBytes } from 'node:crypto';

export type FormPart = { name: string; value: string } | { name: string; file: { data: Uint8Array; contentType: string; fileName: string } };

const SAFE_NAME = /^[A-Za-z0-9_.\-[\]]{1,100}$/;

export function multipartBody(parts: readonly FormPart[], boundary = `----model-gateway-${randomBytes(12).toString('hex')}`): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if (!SAFE_NAME.test(part.name)) throw new TypeError(`A form field name cannot be "${part.name}".`);
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`, 'utf8'));
      continue;
    }
    const { data, contentType, fileName } = part.file;
    if (!SAFE_NAME.test(fileName) || !/^[a-z]+\/[a-z0-9.+-]+$/.test(contentType)) throw new TypeError(`A form file cannot be named "${fileName}" (${contentType}).`);
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`, 'utf8'));
    chunks.push(Buffer.from(data.buffer, data.byteOffset, data.byteLength));
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
