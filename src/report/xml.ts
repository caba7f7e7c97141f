/**
 * XML escaping shared by the checkstyle and JUnit formats.
 */

/**
 * Escapes text for an XML attribute value or element content. Characters
 * XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/F)
 * become U+FFFD; tab, CR and LF become character references so that
 * attribute-value normalisation keeps them.
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "\ufffd")
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .replace(/[&<>"'\t\n\r]/g, (ch) => XML_ENTITIES[ch]);
}

/** Like escapeXml, for element content: line breaks and tabs stay literal (CR is still referenced). */
export function escapeXmlText(text: string): string {
  return escapeXml(text).replace(/&#10;/g, "\n").replace(/&#9;/g, "\t");
}

const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
