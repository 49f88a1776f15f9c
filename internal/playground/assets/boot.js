// Boots GraphiQL from the JSON config that the Go handler renders into
// index.html (#playground-config). Kept in its own file so the page's
// Content-Security-Policy can use script-src 'self' without 'unsafe-inline'.
(function () {
  'use strict';

  var configElement = document.getElementById('playground-config');
  var config = JSON.parse(configElement.textContent);

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: GraphiQL.createFetcher({ url: config.endpoint }),
      defaultQuery: config.defaultQuery,
      // Used for the first tab and for every new tab. Edited headers are kept
      // in localStorage (shouldPersistHeaders) and win over this template.
      defaultHeaders: config.defaultHeaders,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: true,
      defaultEditorToolsVisibility: 'headers',
    }),
  );
})();
