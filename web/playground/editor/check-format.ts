// How the editor's text is given to check(): JSON text that parses is read as YAML (JSON is
// YAML), which gives its issues their line:column; broken JSON as JSON, for the JSON syntax
// error and its place; anything else as the package decides (YAML). The lint worker and the
// page's Load use the same.
export function checkFormat(text: string): 'json' | 'yaml' | 'auto' {
  if (!/^\s*[{[]/.test(text)) return 'auto';
  try {
    JSON.parse(text);
    return 'yaml';
  } catch {
    return 'json';
  }
}
