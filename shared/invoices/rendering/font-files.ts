/**
 * The font files as bytes, for bundles only (fonts.ts imports this module only there): esbuild's
 * `binary` loader turns each `.ttf` into a Uint8Array. Static imports keep them plain values;
 * a dynamic `import()` of a `.ttf` would wrap the bytes in a module namespace built by copying
 * every one of their indices: close to a second for the two fonts.
 */
import bold from '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf';
import regular from '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf';

export { bold, regular };
