// Boots GraphiQL from the JSON config that the Go handler renders into
// index.html (#playground-config), with a "Sign in" panel that fills the
// request headers. Kept in its own file so the page's
// Content-Security-Policy can use script-src 'self' without 'unsafe-inline'.
//
// The schema is introspected only when the headers carry credentials (a
// bearer token with x-tenant-id, or x-api-key), and again whenever those
// headers change, so the first screen shows no authentication error.
(function () {
  'use strict';

  var config = JSON.parse(document.getElementById('playground-config').textContent);
  var h = React.createElement;

  var SIGN_IN = 'Sign in';
  var DOCS = 'Documentation Explorer';
  var SESSION_KEY = 'reten-playground-session';
  var SETTLE_MS = 400;
  var VIEWER_QUERY =
    'query PlaygroundSignIn { viewer { user { email username } ' +
    'tenants { id name } projects { id name isMain } } }';

  // ---- headers --------------------------------------------------------

  function parseHeaders(text) {
    try {
      var v = JSON.parse(text || '{}');
      return v && typeof v === 'object' && !Array.isArray(v) ? v : null;
    } catch (e) {
      return null;
    }
  }

  function header(headers, name) {
    for (var k in headers) {
      if (k.toLowerCase() === name && headers[k] != null) {
        return String(headers[k]).trim();
      }
    }
    return '';
  }

  // A value still holding a template placeholder ("<tenant uuid>") is unset.
  function isSet(v) {
    return v !== '' && v.indexOf('<') < 0;
  }

  function hasCredentials(headers) {
    if (!headers) return false;
    if (isSet(header(headers, 'x-api-key'))) return true;
    var auth = header(headers, 'authorization');
    return /^Bearer\s+\S+$/i.test(auth) && isSet(auth) && isSet(header(headers, 'x-tenant-id'));
  }

  // The headers that decide what the schema request is answered with.
  function credentialKey(headers) {
    if (!headers) return '';
    return JSON.stringify(['authorization', 'x-tenant-id', 'x-project-id', 'x-api-key'].map(function (n) {
      return header(headers, n);
    }));
  }

  function setHeader(headers, name, value) {
    for (var k in headers) {
      if (k.toLowerCase() === name.toLowerCase()) delete headers[k];
    }
    headers[name] = value;
  }

  // The header editor's text with the session's credentials in it.
  function headersFor(text, session) {
    var headers = parseHeaders(text) || {};
    setHeader(headers, 'Authorization', 'Bearer ' + session.token);
    setHeader(headers, 'x-tenant-id', session.tenantId);
    setHeader(headers, 'x-project-id', session.projectId || '');
    return JSON.stringify(headers, null, 2);
  }

  function stringValues(headers) {
    var out = {};
    for (var k in headers || {}) {
      if (headers[k] != null) out[k] = String(headers[k]);
    }
    return out;
  }

  // ---- requests -------------------------------------------------------

  function post(url, body, headers) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/json' }, stringValues(headers)),
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try {
          data = JSON.parse(text);
        } catch (e) {
          data = text;
        }
        return { status: res.status, data: data };
      });
    });
  }

  // The message of a REST error envelope or of the first GraphQL error.
  function errorOf(r) {
    var d = r.data;
    if (d && d.errors && d.errors.length) return d.errors[0].message;
    if (d && d.message) return Array.isArray(d.message) ? d.message.join('; ') : String(d.message);
    return 'HTTP ' + r.status;
  }

  // Executions send the editor's headers. The schema request sends the
  // headers the page last settled on: GraphiQL may hand it an older copy.
  function makeFetcher(schemaHeaders) {
    return function (params, opts) {
      var introspection = params && params.operationName === 'IntrospectionQuery';
      var headers = introspection ? schemaHeaders : (opts && opts.headers) || {};
      return post(config.endpoint, params, headers).then(function (r) {
        return r.data;
      });
    };
  }

  function viewerIn(token, tenantId) {
    return post(config.endpoint, { query: VIEWER_QUERY }, {
      Authorization: 'Bearer ' + token,
      'x-tenant-id': tenantId,
    }).then(function (r) {
      if (r.status !== 200 || !r.data || !r.data.data || !r.data.data.viewer) throw new Error(errorOf(r));
      return r.data.data.viewer;
    });
  }

  function mainProject(projects) {
    for (var i = 0; i < projects.length; i++) if (projects[i].isMain) return projects[i].id;
    return projects.length ? projects[0].id : '';
  }

  function loadSession() {
    try {
      return JSON.parse(window.sessionStorage.getItem(SESSION_KEY) || 'null');
    } catch (e) {
      return null;
    }
  }

  function saveSession(session) {
    try {
      if (session) window.sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
      else window.sessionStorage.removeItem(SESSION_KEY);
    } catch (e) {
      // Storage may be disabled; the session then lasts as long as the page.
    }
  }

  // ---- the sign-in panel ----------------------------------------------

  var Session = React.createContext(null);

  function field(id, label, input) {
    return h('label', { className: 'reten-field', htmlFor: id }, h('span', null, label), input);
  }

  function SignInForm(props) {
    var ctx = props.ctx;
    var identifier = React.useState('');
    var password = React.useState('');
    function submit(e) {
      e.preventDefault();
      ctx.signIn(identifier[0], password[0]);
    }
    return h('form', { id: 'signin-form', onSubmit: submit },
      h('p', null, 'Sign in to fill the request headers; the schema loads once you are signed in.'),
      field('signin-identifier', 'Username or email', h('input', {
        id: 'signin-identifier', name: 'identifier', autoComplete: 'username', required: true,
        value: identifier[0], onChange: function (e) { identifier[1](e.target.value); },
      })),
      field('signin-password', 'Password', h('input', {
        id: 'signin-password', name: 'password', type: 'password', autoComplete: 'current-password', required: true,
        value: password[0], onChange: function (e) { password[1](e.target.value); },
      })),
      h('button', { id: 'signin-submit', type: 'submit', className: 'reten-button', disabled: ctx.busy }, ctx.busy ? 'Signing in…' : 'Sign in'),
      h('p', { className: 'reten-hint' }, 'With an API key, put it in an "x-api-key" header in the Headers tab instead.'));
  }

  function option(value, label) {
    return h('option', { key: value, value: value }, label);
  }

  function SignedIn(props) {
    var ctx = props.ctx;
    var s = ctx.session;
    return h('div', { id: 'signin-session' },
      h('p', null, 'Signed in as ', h('strong', { id: 'signin-user' }, s.user)),
      field('signin-tenant', 'Tenant', h('select', {
        id: 'signin-tenant', value: s.tenantId, disabled: ctx.busy,
        onChange: function (e) { ctx.chooseTenant(e.target.value); },
      }, s.tenants.map(function (t) { return option(t.id, t.name); }))),
      field('signin-project', 'Project', h('select', {
        id: 'signin-project', value: s.projectId, disabled: ctx.busy,
        onChange: function (e) { ctx.chooseProject(e.target.value); },
      }, [option('', 'No project (tenant-level fields only)')].concat(
        s.projects.map(function (p) { return option(p.id, p.name + (p.isMain ? ' (main)' : '')); })))),
      h('p', { className: 'reten-hint' }, 'The Authorization, x-tenant-id and x-project-id headers are filled in (Headers tab). ' +
        'The access token lasts 15 minutes: renew it from the refresh cookie.'),
      h('div', { className: 'reten-buttons' },
        h('button', { id: 'signin-renew', type: 'button', className: 'reten-button', disabled: ctx.busy, onClick: ctx.renew }, 'Renew token'),
        h('button', { id: 'signin-signout', type: 'button', className: 'reten-button', disabled: ctx.busy, onClick: ctx.signOut }, 'Sign out')));
  }

  function SignInPanel() {
    var ctx = React.useContext(Session);
    return h('section', { className: 'reten-signin' },
      h('div', { className: 'graphiql-doc-explorer-title' }, 'Sign in'),
      ctx.session ? h(SignedIn, { ctx: ctx }) : h(SignInForm, { ctx: ctx }),
      ctx.error ? h('p', { id: 'signin-error', role: 'alert', className: 'reten-error' }, ctx.error) : null);
  }

  function KeyIcon() {
    return h('svg', { viewBox: '0 0 24 24', width: '1em', height: '1em', 'aria-hidden': 'true', fill: 'none', stroke: 'currentColor', strokeWidth: 1.5 },
      h('circle', { cx: 8, cy: 15, r: 4 }),
      h('path', { d: 'M11 12l8-8M16 7l3 3M14 9l2 2' }));
  }

  var plugins = [{ title: SIGN_IN, icon: KeyIcon, content: SignInPanel }];

  // ---- the page -------------------------------------------------------

  function Playground() {
    var initial = React.useMemo(function () {
      var session = loadSession();
      return { session: session, headers: session ? headersFor(config.defaultHeaders, session) : config.defaultHeaders };
    }, []);
    var sessionState = React.useState(initial.session);
    var session = sessionState[0];
    var headersState = React.useState(initial.headers);
    var schemaHeadersState = React.useState(function () { return parseHeaders(initial.headers); });
    var schemaHeaders = schemaHeadersState[0];
    var busyState = React.useState(false);
    var errorState = React.useState('');
    var settleTimer = React.useRef(null);

    var fetcher = React.useMemo(function () { return makeFetcher(schemaHeaders); }, [schemaHeaders]);

    // Sets the header editor's text; the schema follows when the
    // credentials in it changed.
    function settleHeaders(text) {
      headersState[1](text);
      var parsed = parseHeaders(text);
      if (parsed) {
        schemaHeadersState[1](function (current) {
          return credentialKey(current) === credentialKey(parsed) ? current : parsed;
        });
      }
    }

    function onEditHeaders(text) {
      headersState[1](text);
      clearTimeout(settleTimer.current);
      settleTimer.current = setTimeout(function () { settleHeaders(text); }, SETTLE_MS);
    }

    function apply(next) {
      saveSession(next);
      sessionState[1](next);
      settleHeaders(next ? headersFor(headersState[0], next) : config.defaultHeaders);
    }

    function run(work) {
      busyState[1](true);
      errorState[1]('');
      return work().catch(function (err) {
        errorState[1](err.message || String(err));
      }).then(function () {
        busyState[1](false);
      });
    }

    function withTenant(base, tenantId) {
      return viewerIn(base.token, tenantId).then(function (v) {
        return {
          token: base.token,
          user: v.user.email || v.user.username,
          tenants: v.tenants.map(function (t) { return { id: t.id, name: t.name }; }),
          tenantId: tenantId,
          projects: v.projects.map(function (p) { return { id: p.id, name: p.name, isMain: p.isMain }; }),
          projectId: mainProject(v.projects),
        };
      });
    }

    var ctx = {
      session: session,
      busy: busyState[0],
      error: errorState[0],
      signIn: function (identifier, password) {
        run(function () {
          return post(config.authPath + '/login', { identifier: identifier, password: password }).then(function (r) {
            if (r.status !== 201 || !r.data || !r.data.accessToken) throw new Error(errorOf(r));
            var tenantIds = (r.data.user && r.data.user.tenantIds) || [];
            if (!tenantIds.length) throw new Error('This user belongs to no tenant.');
            return withTenant({ token: r.data.accessToken }, tenantIds[0]);
          }).then(apply);
        });
      },
      chooseTenant: function (tenantId) {
        run(function () { return withTenant(session, tenantId).then(apply); });
      },
      chooseProject: function (projectId) {
        apply(Object.assign({}, session, { projectId: projectId }));
      },
      renew: function () {
        run(function () {
          return post(config.authPath + '/refresh').then(function (r) {
            if (r.status < 200 || r.status > 299 || !r.data || !r.data.accessToken) throw new Error(errorOf(r));
            apply(Object.assign({}, session, { token: r.data.accessToken }));
          });
        });
      },
      signOut: function () {
        run(function () {
          return post(config.authPath + '/logout').then(function () { apply(null); });
        });
      },
    };

    return h(Session.Provider, { value: ctx }, h(GraphiQL, {
      fetcher: fetcher,
      // null: no introspection until there are credentials to send.
      schema: hasCredentials(schemaHeaders) ? undefined : null,
      defaultQuery: config.defaultQuery,
      defaultHeaders: config.defaultHeaders,
      headers: headersState[0],
      onEditHeaders: onEditHeaders,
      isHeadersEditorEnabled: true,
      // The token stays in this tab's session storage, not in GraphiQL's
      // persistent storage.
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
      plugins: plugins,
      visiblePlugin: session ? DOCS : SIGN_IN,
    }));
  }

  ReactDOM.createRoot(document.getElementById('graphiql')).render(h(Playground));
})();
