/**
 * The documents room: the buffers the client has open (by absolute path),
 * their versions, and what a lint reads in place of the files on disk.
 * Position encodings are in positions.ts.
 */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { CONFIG_FILE_NAME } from "../config/load.js";
import { isIgnoredFileName, moduleFileExtension } from "../terraform/files.js";

/** A file a module is made of (.tf, .tf.json, .tofu, .tofu.json), not one Terraform ignores. */
export function isModuleFile(abs: string): boolean {
  const name = path.basename(abs);
  return moduleFileExtension(name) !== null && !isIgnoredFileName(name);
}

/** Whether a path names a config file. */
export function isConfigFile(abs: string): boolean {
  return path.basename(abs) === CONFIG_FILE_NAME;
}

/** The absolute path of a `file:` URI; null for any other URI. */
export function pathOf(uri: string): string | null {
  if (!uri.startsWith("file:")) return null;
  try {
    return fileURLToPath(uri);
  } catch {
    return null;
  }
}

export function fileUri(abs: string): string {
  return pathToFileURL(abs).href;
}

/** The open documents, by absolute path. */
export class Documents {
  private readonly open = new Map<string, TextDocument>();

  set(abs: string, doc: TextDocument): void {
    this.open.set(abs, doc);
  }

  delete(abs: string): void {
    this.open.delete(abs);
  }

  get(abs: string): TextDocument | undefined {
    return this.open.get(abs);
  }

  has(abs: string): boolean {
    return this.open.has(abs);
  }

  /** The texts of the open module files, for a lint to read instead of the disk. */
  overlay(): Map<string, string> {
    const m = new Map<string, string>();
    for (const [abs, doc] of this.open) if (isModuleFile(abs)) m.set(abs, doc.getText());
    return m;
  }

  /** The URI a path is shown under: the open document's, else a `file:` URI. */
  uriOf(abs: string): string {
    return this.open.get(abs)?.uri ?? fileUri(abs);
  }

  /** The open module files of a directory. */
  moduleDocs(dir: string): TextDocument[] {
    const out: TextDocument[] = [];
    for (const [p, doc] of this.open) if (path.dirname(p) === dir && isModuleFile(p)) out.push(doc);
    return out;
  }

  /** The open document's version when `uri` is its URI. */
  versionOf(uri: string): number | undefined {
    const abs = pathOf(uri);
    const doc = abs === null ? undefined : this.open.get(abs);
    return doc && doc.uri === uri ? doc.version : undefined;
  }
}
