// Renders the REST reference with the embedded Redoc bundle from the OpenAPI
// document named by #reference's data-spec-url. Kept in its own file so the
// page's Content-Security-Policy can use script-src 'self'.
(function () {
  'use strict';

  var element = document.getElementById('reference');
  Redoc.init(
    element.getAttribute('data-spec-url'),
    {
      expandResponses: '200,201',
      jsonSampleExpandLevel: 3,
      pathInMiddlePanel: true,
      requiredPropsFirst: true,
      sortPropsAlphabetically: false,
      theme: {
        typography: {
          fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif',
          headings: { fontFamily: 'system-ui, -apple-system, "Segoe UI", sans-serif' },
          code: { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
        },
      },
    },
    element,
  );
})();
