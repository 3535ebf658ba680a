// electron-builder hooks (electron-builder.yml): better-sqlite3 built for the Electron in the
// package, without touching the project's node_modules, whose Node build the tests and
// `npm start` load (electron-builder's own npmRebuild would rebuild that one in place).
//   beforePack  copies better-sqlite3's sources to dist/installers/.native/<platform>-<arch>
//               and rebuilds that copy with @electron/rebuild for the target arch;
//   afterPack   puts the rebuilt module into the packed app (app.asar.unpacked), before
//               electron-builder signs it.
// COMANDA_SKIP_NATIVE_REBUILD=1 skips both (the packaged-layout test: no Electron headers can
// be downloaded there, and it runs the package under plain Node, for which the project's own
// build is the right one).
import fs from 'node:fs';
import path from 'node:path';

const MODULE = 'better-sqlite3';
const BINARY = 'build/Release/better_sqlite3.node';
const skipped = () => process.env.COMANDA_SKIP_NATIVE_REBUILD === '1';

async function archName(context) {
  const { Arch } = (await import('electron-builder')).default ?? (await import('electron-builder'));
  return Arch[context.arch];
}

/** Where the copy for this platform and arch is built. */
async function stageOf(context) {
  return path.join(context.outDir, '.native', `${context.electronPlatformName}-${await archName(context)}`);
}

export async function beforePack(context) {
  if (skipped()) {
    console.log(`  • ${MODULE}: native rebuild skipped (COMANDA_SKIP_NATIVE_REBUILD=1): the package keeps the project's Node build`);
    return;
  }
  const projectDir = context.packager.projectDir;
  const stage = await stageOf(context);
  const source = path.join(projectDir, 'node_modules', MODULE);
  const copy = path.join(stage, 'node_modules', MODULE);
  fs.rmSync(stage, { recursive: true, force: true });
  // the module's sources without the project's build of it
  fs.cpSync(source, copy, { recursive: true, filter: (p) => path.relative(source, p).split(path.sep)[0] !== 'build' });
  const version = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')).version;
  fs.writeFileSync(path.join(stage, 'package.json'), JSON.stringify({ name: 'comanda-native', private: true, dependencies: { [MODULE]: version } }));
  const { rebuild } = await import('@electron/rebuild');
  const arch = await archName(context);
  await rebuild({ buildPath: stage, projectRootPath: stage, electronVersion: context.packager.config.electronVersion, arch, force: true, onlyModules: [MODULE] });
  if (!fs.existsSync(path.join(copy, BINARY))) throw new Error(`${MODULE} was not rebuilt for Electron in ${stage}`);
  console.log(`  • ${MODULE} ${version} rebuilt for Electron ${context.packager.config.electronVersion} (${context.electronPlatformName} ${arch}) in ${path.relative(projectDir, stage)}`);
}

export async function afterPack(context) {
  if (skipped()) return;
  const resources =
    context.electronPlatformName === 'darwin'
      ? path.join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`, 'Contents', 'Resources')
      : path.join(context.appOutDir, 'resources');
  const target = path.join(resources, 'app.asar.unpacked', 'node_modules', MODULE, BINARY);
  if (!fs.existsSync(target)) throw new Error(`the packed app has no ${MODULE} binary at ${target}`);
  fs.copyFileSync(path.join(await stageOf(context), 'node_modules', MODULE, BINARY), target);
}
