import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { checkModulePath, loadModuleTool } from '../../src/core/tools/module-tool.js';
import { parametersJsonSchema, validateArguments } from '../../src/core/tools/parameters.js';
import { FIXTURES, run, sandbox, type Sandbox } from './helpers.js';

describe('loadModuleTool', () => {
  it('loads a named zod tool and a default JSON-schema tool', async () => {
    const weather = await loadModuleTool(FIXTURES, { module: './tools/weather.mjs', export: 'weather' });
    expect(weather.name).toBe('weather');
    expect(parametersJsonSchema(weather)).toMatchObject({ properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] });
    expect((await run(weather, { city: 'Oslo' })).content).toBe('It is sunny in Oslo.');
    const forecast = await loadModuleTool(FIXTURES, { module: 'tools/weather.mjs' });
    expect(forecast.name).toBe('forecast');
    expect(validateArguments(forecast, {}).ok).toBe(false);
    expect((await run(forecast, { city: 'Oslo' })).content).toBe('Rain tomorrow in Oslo.');
  });

  it('explains a missing export, a bad shape, a missing or broken module', async () => {
    await expect(loadModuleTool(FIXTURES, { module: './tools/weather.mjs', export: 'nope' })).rejects.toThrow(
      /module '.\/tools\/weather.mjs' has no export 'nope' \(its exports: default, notATool, weather\)/,
    );
    const bad = loadModuleTool(FIXTURES, { module: './tools/weather.mjs', export: 'notATool' });
    await expect(bad).rejects.toBeInstanceOf(ConfigError);
    await expect(bad).rejects.toThrow(/export 'notATool' of module '.\/tools\/weather.mjs' is not a valid tool: `name` must be .*`description` must be a string; `parameters` must be .*`execute` must be a function/);
    await expect(loadModuleTool(FIXTURES, { module: './tools/missing.mjs' })).rejects.toThrow(/module '.\/tools\/missing.mjs' does not exist/);
  });

  describe('paths', () => {
    let sb: Sandbox;
    beforeEach(async () => {
      sb = await sandbox();
    });
    afterEach(() => sb.cleanup());

    it('rejects absolute paths and paths that leave the base folder', async () => {
      await writeFile(path.join(sb.outside, 'evil.mjs'), 'export default { name: "evil", description: "", parameters: {}, execute() {} }');
      const abs = path.join(sb.outside, 'evil.mjs');
      expect(checkModulePath(sb.root, abs)).toMatch(/is absolute/);
      expect(checkModulePath(sb.root, '../outside/evil.mjs')).toMatch(/leaves the folder of agents.yaml/);
      expect(checkModulePath(sb.root, 'tools/../../outside/evil.mjs')).toMatch(/leaves the folder/);
      expect(checkModulePath(sb.root, 'file:///etc/passwd')).toMatch(/not a URL or package/);
      expect(checkModulePath(sb.root, './tools/ok.mjs')).toBeUndefined();
      await writeFile(path.join(sb.root, 'broken.mjs'), 'export const = ;');
      await expect(loadModuleTool(sb.root, { module: './broken.mjs' })).rejects.toThrow(/module '.\/broken.mjs' could not be loaded: /);
      await expect(loadModuleTool(sb.root, { module: abs })).rejects.toThrow(/is absolute/);
      await expect(loadModuleTool(sb.root, { module: '../outside/evil.mjs' })).rejects.toThrow(/leaves the folder/);
    });

    it('rejects a symlink that points outside, for the file or a folder on the way', async () => {
      await writeFile(path.join(sb.outside, 'evil.mjs'), 'export default { name: "evil", description: "", parameters: {}, execute() {} }');
      await symlink(path.join(sb.outside, 'evil.mjs'), path.join(sb.root, 'linked.mjs'));
      await mkdir(path.join(sb.root, 'tools'));
      await symlink(sb.outside, path.join(sb.root, 'tools', 'ext'));
      expect(checkModulePath(sb.root, './linked.mjs')).toMatch(/resolves \(through a symbolic link\) to '.*outside\/evil.mjs', outside/);
      expect(checkModulePath(sb.root, './tools/ext/evil.mjs')).toMatch(/through a symbolic link/);
      await expect(loadModuleTool(sb.root, { module: './linked.mjs' })).rejects.toThrow(/through a symbolic link/);
    });
  });
});
