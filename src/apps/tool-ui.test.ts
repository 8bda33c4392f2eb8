import { describe, expect, it } from 'vitest';
import { isCallableByApp, isOfferedToModel, uiResourceUriOf, visibilityOf } from './tool-ui.js';

const tool = (meta?: Record<string, unknown>) => ({ ...(meta ? { _meta: meta } : {}) });

describe('uiResourceUriOf', () => {
  it('reads _meta.ui.resourceUri, and the deprecated flat key', () => {
    expect(uiResourceUriOf(tool({ ui: { resourceUri: 'ui://weather/app.html' } }))).toBe(
      'ui://weather/app.html',
    );
    expect(uiResourceUriOf(tool({ 'ui/resourceUri': 'ui://old/app.html' }))).toBe('ui://old/app.html');
  });

  it('ignores anything that is not a ui:// URI', () => {
    for (const resourceUri of ['https://evil.example/app.html', 'javascript:alert(1)', 'not a uri', 42])
      expect(uiResourceUriOf(tool({ ui: { resourceUri } }))).toBeUndefined();
    expect(uiResourceUriOf(tool())).toBeUndefined();
    expect(uiResourceUriOf(tool({ ui: 'ui://x' }))).toBeUndefined();
  });
});

describe('visibility', () => {
  it('defaults to model and app', () => {
    expect(visibilityOf(tool())).toEqual(['model', 'app']);
    expect(isOfferedToModel(tool({ ui: { resourceUri: 'ui://a/b' } }))).toBe(true);
    expect(isCallableByApp(tool())).toBe(true);
  });

  it('keeps app-only tools from the model and model-only tools from apps', () => {
    const appOnly = tool({ ui: { visibility: ['app'] } });
    expect(isOfferedToModel(appOnly)).toBe(false);
    expect(isCallableByApp(appOnly)).toBe(true);
    const modelOnly = tool({ ui: { visibility: ['model'] } });
    expect(isOfferedToModel(modelOnly)).toBe(true);
    expect(isCallableByApp(modelOnly)).toBe(false);
  });

  it('reads a malformed visibility as nobody', () => {
    for (const visibility of ['app', { app: true }, null, ['everyone']]) {
      const odd = tool({ ui: { visibility } });
      expect(isOfferedToModel(odd)).toBe(false);
      expect(isCallableByApp(odd)).toBe(false);
    }
  });
});
