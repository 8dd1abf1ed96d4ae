/** `.ttf` imports exist only in bundles, where esbuild's `binary` loader turns the file into its bytes (see fonts.ts). */
declare module '*.ttf' {
  const bytes: Uint8Array;
  export default bytes;
}
