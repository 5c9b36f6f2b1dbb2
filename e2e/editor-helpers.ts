// The playground's definition editor (CodeMirror) in e2e tests: set its text as a user would
// (select all, then type it in one go) and read all of it (CodeMirror renders only the lines
// in view, so the text is asked of the editor, which #editor-box holds: editor.ts).
import type { Page } from '@playwright/test';

export const editorContent = (page: Page) => page.locator('#editor-box .cm-content');

export async function setEditorText(page: Page, text: string): Promise<void> {
  await editorContent(page).click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(text);
}

export function editorText(page: Page): Promise<string> {
  return page.locator('#editor-box').evaluate((el) => (el as HTMLElement & { rulestackEditor: { value: string } }).rulestackEditor.value);
}
