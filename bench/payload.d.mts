export declare const MESSAGE: string;
export declare const TOOL: string;
export declare function echoResponse(id: number | string): {
  result: { content: { type: 'text'; text: string }[] };
  jsonrpc: '2.0';
  id: number | string;
};
