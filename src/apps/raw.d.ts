/** Vite's `?raw` imports: the file's text as a string (the sandbox proxy page). */
declare module '*?raw' {
  const text: string;
  export default text;
}
