// Node-RED settings for the order-cycle peer of `npm run bench`: no editor, no HTTP server,
// warnings only. The harness passes --userDir (a temp folder) and the flow file.
module.exports = {
  httpAdminRoot: false,
  httpNodeRoot: false,
  credentialSecret: false,
  logging: { console: { level: 'warn', metrics: false, audit: false } },
  editorTheme: { tours: false },
};
