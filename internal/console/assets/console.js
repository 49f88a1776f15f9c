// The Reten console (docs/console.md): signs in through the REST auth
// routes, then reads everything it shows from the GraphQL API, each view
// one query (the database aggregates; the page only draws). Kept in its own
// file so the page's Content-Security-Policy needs no 'unsafe-inline'.
(function () {
  'use strict';

  var config = JSON.parse(document.getElementById('console-config').textContent);
  var SESSION_KEY = 'reten-console-session';
  var PAGE = 100; // GraphQL's page cap
  var RUN_POLL_MS = 1000;
  var RUN_WAIT_MS = 120000;
  var STAGES = ['ACTIVATION', 'ENGAGEMENT', 'RESURRECTION'];
  // A palette per stage: the codes of a stage take its shades in turn.
  var PALETTES = {
    ACTIVATION: ['#0969da', '#54aeff', '#0a3069', '#80ccff', '#218bff'],
    ENGAGEMENT: ['#1a7f37', '#4ac26b', '#116329', '#aceebb', '#2da44e'],
    RESURRECTION: ['#bc4c00', '#fb8f44', '#953800', '#ffd8b5', '#e16f24', '#cf222e'],
  };
  var OTHER = ['#8250df', '#bf3989', '#6e7781', '#9a6700', '#1b7c83', '#c297ff'];
  // The columns of the uplift CSV export (internal/uplift.CSVHeader), each
  // with the UpliftRow field it is made of.
  var CSV_COLUMNS = [
    ['decision_id', 'decisionID'], ['commerce_id', 'commerceID'], ['external_id', 'externalID'], ['rule_id', 'ruleID'],
    ['channel', 'channel'], ['group', 'group'], ['decided_at', 'decidedAt'], ['window_end', 'windowEnd'],
    ['stage', 'stage'], ['status_code', 'statusCode'], ['engaged', 'engaged'], ['end_stage', 'endStage'],
    ['end_status_code', 'endStatusCode'], ['improved', 'improved'], ['activity_id', 'activityID'],
    ['result_code', 'resultCode'], ['positive_result', 'positiveResult'],
  ];

  var $ = function (id) { return document.getElementById(id); };
  var session = load();
  var charts = {};
  var current = 'lifecycle';
  var generation = 0; // bumps when the selection changes: late answers are dropped

  // ---- session and requests ----------------------------------------------

  function load() {
    try {
      return JSON.parse(sessionStorage.getItem(SESSION_KEY)) || null;
    } catch (e) {
      return null;
    }
  }

  function save() {
    if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
    else sessionStorage.removeItem(SESSION_KEY);
  }

  function post(url, body, headers) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: Object.assign({ 'content-type': 'application/json', accept: 'application/json' }, headers || {}),
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try { data = JSON.parse(text); } catch (e) { data = text; }
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

  function headers() {
    var h = { Authorization: 'Bearer ' + session.token, 'x-tenant-id': session.tenantId };
    if (session.projectId) h['x-project-id'] = session.projectId;
    return h;
  }

  // gql runs a query with the session's credentials; an expired access
  // token is renewed once from the refresh cookie.
  function gql(query, variables, retried) {
    return post(config.endpoint, { query: query, variables: variables || {} }, headers()).then(function (r) {
      if (r.status === 401 && !retried) {
        return post(config.authPath + '/refresh').then(function (rr) {
          if (rr.status < 200 || rr.status > 299 || !rr.data || !rr.data.accessToken) {
            signedOut('Your session has ended: sign in again.');
            throw new Error('Your session has ended: sign in again.');
          }
          session.token = rr.data.accessToken;
          save();
          return gql(query, variables, true);
        });
      }
      if (r.status !== 200 || !r.data || (r.data.errors && r.data.errors.length)) throw new Error(errorOf(r));
      return r.data.data;
    });
  }

  // ---- sign-in and selection ----------------------------------------------

  var VIEWER = 'query ConsoleViewer { viewer { user { email username } tenants { id name } projects { id name isMain } } }';
  var AGCS = 'query ConsoleAGCs($after: Cursor) { activityGenerationConfigs(first: 100, after: $after) {' +
    ' edges { node { id name status } } pageInfo { hasNextPage endCursor } } }';

  function option(value, text) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = text;
    return o;
  }

  function fill(select, items, selected) {
    select.replaceChildren.apply(select, items.map(function (it) { return option(it.id, it.name); }));
    if (selected) select.value = selected;
  }

  function enterTenant(tenantId) {
    session.tenantId = tenantId;
    session.projectId = '';
    return gql(VIEWER).then(function (d) {
      var v = d.viewer;
      session.user = v.user.email || v.user.username;
      session.tenants = v.tenants;
      session.projects = v.projects;
      var main = v.projects.filter(function (p) { return p.isMain; })[0] || v.projects[0];
      session.projectId = main ? main.id : '';
      return enterProject(session.projectId);
    });
  }

  function enterProject(projectId) {
    session.projectId = projectId;
    session.agcs = [];
    session.agcId = '';
    if (!projectId) return Promise.resolve();
    var all = [];
    var page = function (after) {
      return gql(AGCS, { after: after || null }).then(function (d) {
        var c = d.activityGenerationConfigs;
        c.edges.forEach(function (e) { all.push({ id: e.node.id, name: e.node.name + ' (' + e.node.status + ')' }); });
        return c.pageInfo.hasNextPage ? page(c.pageInfo.endCursor) : null;
      });
    };
    return page().then(function () {
      session.agcs = all;
      session.agcId = all.length ? all[0].id : '';
    });
  }

  function showWorkspace() {
    save();
    $('signin').hidden = true;
    $('workspace').hidden = false;
    $('who').hidden = false;
    $('who-user').textContent = session.user || '';
    fill($('tenant'), session.tenants || [], session.tenantId);
    fill($('project'), session.projects || [], session.projectId);
    fill($('agc'), session.agcs || [], session.agcId);
    refresh();
  }

  function signedOut(message) {
    session = null;
    save();
    destroyCharts();
    $('workspace').hidden = true;
    $('who').hidden = true;
    $('signin').hidden = false;
    $('signin-error').textContent = message || '';
  }

  function busy(promise) {
    setStatus('Loading…');
    return promise.then(function () { setStatus(''); }, function (err) { setStatus(err.message || String(err), true); });
  }

  function setStatus(text, isError) {
    $('status').textContent = text;
    $('status').classList.toggle('error', !!isError);
  }

  $('signin-form').addEventListener('submit', function (ev) {
    ev.preventDefault();
    var identifier = $('identifier').value.trim();
    var password = $('password').value;
    if (!identifier || !password) {
      $('signin-error').textContent = 'Enter your username or email and your password.';
      return;
    }
    $('signin-submit').disabled = true;
    $('signin-error').textContent = '';
    post(config.authPath + '/login', { identifier: identifier, password: password }).then(function (r) {
      if (r.status !== 201 || !r.data || !r.data.accessToken) throw new Error(errorOf(r));
      var tenantIds = (r.data.user && r.data.user.tenantIds) || [];
      if (!tenantIds.length) throw new Error('This user belongs to no tenant.');
      session = { token: r.data.accessToken };
      return enterTenant(tenantIds[0]);
    }).then(function () {
      $('password').value = '';
      showWorkspace();
    }, function (err) {
      session = null;
      $('signin-error').textContent = err.message || String(err);
    }).then(function () {
      $('signin-submit').disabled = false;
    });
  });

  $('sign-out').addEventListener('click', function () {
    post(config.authPath + '/logout').then(function () { signedOut(''); }, function () { signedOut(''); });
  });

  $('tenant').addEventListener('change', function (ev) {
    busy(enterTenant(ev.target.value).then(showWorkspace));
  });
  $('project').addEventListener('change', function (ev) {
    busy(enterProject(ev.target.value).then(showWorkspace));
  });
  $('agc').addEventListener('change', function (ev) {
    session.agcId = ev.target.value;
    save();
    refresh();
  });
  $('period').addEventListener('change', refresh);

  // ---- tabs ------------------------------------------------------------------

  var TABS = ['lifecycle', 'transitions', 'runs', 'generation', 'uplift'];

  function select(name, focus) {
    current = name;
    TABS.forEach(function (t) {
      var tab = $('tab-' + t);
      var on = t === name;
      tab.setAttribute('aria-selected', on ? 'true' : 'false');
      tab.tabIndex = on ? 0 : -1;
      $('view-' + t).hidden = !on;
      if (on && focus) tab.focus();
    });
    refresh();
  }

  TABS.forEach(function (t, i) {
    var tab = $('tab-' + t);
    tab.addEventListener('click', function () { select(t); });
    tab.addEventListener('keydown', function (ev) {
      var step = ev.key === 'ArrowRight' ? 1 : ev.key === 'ArrowLeft' ? -1 : 0;
      if (step) select(TABS[(i + step + TABS.length) % TABS.length], true);
    });
  });

  // refresh draws the current view of the selected AGC.
  function refresh() {
    generation++;
    if (!session || !session.token) return;
    if (!session.agcId) {
      destroyCharts();
      setStatus('This project has no activity generation config.');
      return;
    }
    var mine = generation;
    var view = VIEWS[current];
    busy(view.load(session.agcId, since()).then(function (data) {
      if (mine === generation) view.draw(data);
    }));
  }

  // since is the start of the chosen period.
  function since() {
    var days = Number($('period').value) || 90;
    return new Date(Date.now() - days * 86400000).toISOString();
  }

  // ---- charts --------------------------------------------------------------

  function destroyCharts() {
    Object.keys(charts).forEach(function (id) { charts[id].destroy(); });
    charts = {};
  }

  function chart(id, cfg) {
    if (charts[id]) charts[id].destroy();
    cfg.options = Object.assign({ responsive: true, maintainAspectRatio: false, animation: false }, cfg.options || {});
    charts[id] = new Chart($(id), cfg);
    return charts[id];
  }

  function stateKey(s) { return s.stage + '/' + s.code; }
  function stateLabel(s) { return s.code + ' (' + s.stage.toLowerCase() + ')'; }

  // colors gives each state a color: its stage's palette, shade by shade.
  function colors(states) {
    var used = {};
    var out = {};
    states.forEach(function (s) {
      var p = PALETTES[s.stage] || OTHER;
      var n = used[s.stage] || 0;
      used[s.stage] = n + 1;
      out[stateKey(s)] = p[n % p.length];
    });
    return out;
  }

  function table(id, head, rows) {
    var t = $(id);
    var thead = document.createElement('thead');
    var tr = document.createElement('tr');
    head.forEach(function (h) {
      var th = document.createElement('th');
      th.scope = 'col';
      th.textContent = h;
      tr.appendChild(th);
    });
    thead.appendChild(tr);
    var tbody = document.createElement('tbody');
    rows.forEach(function (r) {
      var row = document.createElement('tr');
      r.forEach(function (v) {
        var td = document.createElement('td');
        td.textContent = v == null ? '' : String(v);
        row.appendChild(td);
      });
      tbody.appendChild(row);
    });
    t.replaceChildren(thead, tbody);
  }

  function sum(xs) { return xs.reduce(function (a, b) { return a + b; }, 0); }
  function pct(x) { return x == null ? '—' : (x * 100).toFixed(1) + '%'; }
  function points(x) { return x == null ? null : Math.round(x * 10000) / 100; }
  function pts(x) { return (x * 100).toFixed(1) + ' pts'; }
  function when(t) { return t ? t.replace('T', ' ').replace(/\.\d+/, '').replace('Z', ' UTC') : ''; }

  // ---- views -----------------------------------------------------------------

  var VIEWS = {};

  VIEWS.lifecycle = {
    load: function (id, from) {
      return gql('query ConsoleLifecycle($id: ID!, $from: Time) {' +
        ' lifecycleDistribution(activityGenerationConfigID: $id) { stage code count }' +
        ' lifecycleEvolution(activityGenerationConfigID: $id, from: $from) { days series { stage code counts } } }',
      { id: id, from: from });
    },
    draw: function (d) {
      var dist = d.lifecycleDistribution;
      var evo = d.lifecycleEvolution;
      var known = {};
      var states = [];
      dist.concat(evo.series).forEach(function (s) {
        if (!known[stateKey(s)]) { known[stateKey(s)] = true; states.push({ stage: s.stage, code: s.code }); }
      });
      var color = colors(states);
      var stages = STAGES.filter(function (st) { return dist.some(function (s) { return s.stage === st; }); });
      chart('chart-distribution', {
        type: 'bar',
        data: {
          labels: stages,
          datasets: dist.map(function (s) {
            return {
              label: stateLabel(s),
              data: stages.map(function (st) { return st === s.stage ? s.count : null; }),
              backgroundColor: color[stateKey(s)],
            };
          }),
        },
        options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'commerces' } } } },
      });
      chart('chart-evolution', {
        type: 'line',
        data: {
          labels: evo.days,
          datasets: evo.series.map(function (s) {
            return {
              label: stateLabel(s), data: s.counts, fill: true, pointRadius: 0, borderWidth: 1,
              borderColor: color[stateKey(s)], backgroundColor: color[stateKey(s)] + 'b3',
            };
          }),
        },
        options: {
          interaction: { mode: 'index', intersect: false },
          scales: { x: { ticks: { maxTicksLimit: 10 } }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'commerces' } } },
        },
      });
      var total = sum(dist.map(function (s) { return s.count; }));
      $('lifecycle-summary').textContent = total + ' commerces in ' + dist.length + ' states';
      table('table-distribution', ['Stage', 'Code', 'Commerces'], dist.map(function (s) { return [s.stage, s.code, s.count]; }));
    },
  };

  VIEWS.transitions = {
    load: function (id, from) {
      return gql('query ConsoleTransitions($id: ID!, $from: Time) {' +
        ' lifecycleTransitionCounts(activityGenerationConfigID: $id, from: $from) { from { stage code } to { stage code } count } }',
      { id: id, from: from });
    },
    draw: function (d) {
      var rows = d.lifecycleTransitionCounts;
      var FIRST = { stage: '', code: '(first state)' };
      var order = function (a, b) {
        var sa = STAGES.indexOf(a.stage), sb = STAGES.indexOf(b.stage);
        return sa !== sb ? sa - sb : a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
      };
      var froms = {}, tos = {}, cell = {}, max = 0;
      rows.forEach(function (r) {
        var f = r.from || FIRST;
        froms[stateKey(f)] = f;
        tos[stateKey(r.to)] = r.to;
        cell[stateKey(f) + '>' + stateKey(r.to)] = r.count;
        max = Math.max(max, r.count);
      });
      var fromList = Object.keys(froms).map(function (k) { return froms[k]; }).sort(order);
      var toList = Object.keys(tos).map(function (k) { return tos[k]; }).sort(order);
      var t = $('table-transitions');
      var thead = document.createElement('thead');
      var hr = document.createElement('tr');
      var corner = document.createElement('th');
      corner.scope = 'col';
      corner.textContent = 'from \\ to';
      hr.appendChild(corner);
      toList.forEach(function (s) {
        var th = document.createElement('th');
        th.scope = 'col';
        th.textContent = s.code;
        th.title = stateLabel(s);
        hr.appendChild(th);
      });
      thead.appendChild(hr);
      var tbody = document.createElement('tbody');
      fromList.forEach(function (f) {
        var tr = document.createElement('tr');
        var th = document.createElement('th');
        th.scope = 'row';
        th.textContent = f.code;
        th.title = f.stage ? stateLabel(f) : 'A commerce\'s first state';
        tr.appendChild(th);
        toList.forEach(function (to) {
          var td = document.createElement('td');
          var n = cell[stateKey(f) + '>' + stateKey(to)] || 0;
          td.textContent = String(n);
          td.dataset.from = stateKey(f);
          td.dataset.to = stateKey(to);
          if (n === 0) td.className = 'empty';
          else td.style.backgroundColor = 'rgba(9, 105, 218, ' + (0.12 + 0.6 * n / max).toFixed(3) + ')';
          tr.appendChild(td);
        });
        tbody.appendChild(tr);
      });
      t.replaceChildren(thead, tbody);
      var top = rows.slice(0, 12);
      chart('chart-transitions', {
        type: 'bar',
        data: {
          labels: top.map(function (r) { return (r.from ? r.from.code : '(first state)') + ' → ' + r.to.code; }),
          datasets: [{ label: 'transitions', data: top.map(function (r) { return r.count; }), backgroundColor: '#0969da' }],
        },
        options: { indexAxis: 'y', plugins: { legend: { display: false } }, scales: { x: { beginAtZero: true } } },
      });
      $('transitions-summary').textContent = sum(rows.map(function (r) { return r.count; })) + ' transitions in the period';
    },
  };

  var RUNS = 'query ConsoleRuns($id: ID!) { lifecycleRuns(activityGenerationConfigID: $id, first: 20) { edges { node {' +
    ' id status trigger asOf dryRun startedAt finishedAt error' +
    ' counts { evaluated classified unclassified created updated unchanged stale } } } } }';

  function duration(run) {
    if (!run.startedAt || !run.finishedAt) return '';
    return ((Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000).toFixed(2) + ' s';
  }

  VIEWS.runs = {
    load: function (id) { return gql(RUNS, { id: id }); },
    draw: function (d) {
      var runs = d.lifecycleRuns.edges.map(function (e) { return e.node; });
      table('table-runs', ['As of', 'Trigger', 'Dry run', 'Status', 'Duration', 'Evaluated', 'Classified', 'Created', 'Updated', 'Unchanged'],
        runs.map(function (r) {
          return [when(r.asOf), r.trigger, r.dryRun ? 'yes' : 'no', r.status + (r.error ? ': ' + r.error : ''), duration(r),
            r.counts.evaluated, r.counts.classified, r.counts.created, r.counts.updated, r.counts.unchanged];
        }));
      var chrono = runs.slice().reverse();
      var series = function (label, key, color) {
        return { label: label, data: chrono.map(function (r) { return r.counts[key]; }), backgroundColor: color };
      };
      chart('chart-runs', {
        type: 'bar',
        data: {
          labels: chrono.map(function (r) { return r.asOf.slice(0, 10) + (r.dryRun ? ' (dry)' : ''); }),
          datasets: [series('created', 'created', '#1a7f37'), series('updated', 'updated', '#0969da'), series('unchanged', 'unchanged', '#afb8c1')],
        },
        options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'snapshots' } } } },
      });
    },
  };

  function startRun(dryRun) {
    var id = session.agcId;
    var buttons = [$('run-now'), $('dry-run')];
    buttons.forEach(function (b) { b.disabled = true; });
    var started = Date.now();
    var wait = function (runId) {
      return gql(RUNS, { id: id }).then(function (d) {
        var run = d.lifecycleRuns.edges.map(function (e) { return e.node; }).filter(function (r) { return r.id === runId; })[0];
        if (run && (run.status === 'SUCCEEDED' || run.status === 'FAILED')) return run;
        if (Date.now() - started > RUN_WAIT_MS) throw new Error('The run is still ' + (run ? run.status : 'queued') + ': look again later.');
        setStatus('The run is ' + (run ? run.status : 'QUEUED') + '…');
        return new Promise(function (resolve) { setTimeout(resolve, RUN_POLL_MS); }).then(function () { return wait(runId); });
      });
    };
    gql('mutation ConsoleStartRun($input: StartLifecycleRunInput!) { startLifecycleRun(input: $input) { id status } }',
      { input: { activityGenerationConfigID: id, dryRun: dryRun } }).then(function (d) {
      setStatus('The run is ' + d.startLifecycleRun.status + '…');
      return wait(d.startLifecycleRun.id);
    }).then(function (run) {
      return VIEWS.runs.load(id).then(function (d) {
        if (session && session.agcId === id && current === 'runs') VIEWS.runs.draw(d);
        return run;
      });
    }).then(function (run) {
      setStatus((dryRun ? 'Dry run ' : 'Run ') + run.status + (run.error ? ': ' + run.error : '') + ' (' + duration(run) + ').', run.status === 'FAILED');
    }, function (err) {
      setStatus(err.message || String(err), true);
    }).then(function () {
      buttons.forEach(function (b) { b.disabled = false; });
    });
  }

  $('run-now').addEventListener('click', function () { startRun(false); });
  $('dry-run').addEventListener('click', function () { startRun(true); });

  var KIND_COLORS = { GENERATED: '#1a7f37', HELD_OUT: '#8250df', CAPPED: '#bc4c00', SUPPRESSED: '#6e7781', EXPIRED_RULE: '#afb8c1' };

  VIEWS.generation = {
    load: function (id, from) {
      return gql('query ConsoleGeneration($id: ID!, $since: Time) {' +
        ' generationDecisionCounts(activityGenerationConfigID: $id, since: $since) { ruleID ruleName kind count }' +
        ' generatedActivityCounts(activityGenerationConfigID: $id, since: $since) { status count } }',
      { id: id, since: from });
    },
    draw: function (d) {
      var decisions = d.generationDecisionCounts;
      var rules = [], names = {}, kinds = [];
      decisions.forEach(function (r) {
        if (!(r.ruleID in names)) { names[r.ruleID] = r.ruleName; rules.push(r.ruleID); }
        if (kinds.indexOf(r.kind) < 0) kinds.push(r.kind);
      });
      kinds.sort();
      chart('chart-decisions', {
        type: 'bar',
        data: {
          labels: rules.map(function (id) { return names[id]; }),
          datasets: kinds.map(function (k, i) {
            return {
              label: k,
              data: rules.map(function (id) {
                var hit = decisions.filter(function (r) { return r.ruleID === id && r.kind === k; })[0];
                return hit ? hit.count : null;
              }),
              backgroundColor: KIND_COLORS[k] || OTHER[i % OTHER.length],
            };
          }),
        },
        options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true, title: { display: true, text: 'decisions' } } } },
      });
      var acts = d.generatedActivityCounts;
      chart('chart-activities', {
        type: 'bar',
        data: {
          labels: acts.map(function (a) { return a.status; }),
          datasets: [{ label: 'activities', data: acts.map(function (a) { return a.count; }), backgroundColor: '#0969da' }],
        },
        options: { plugins: { legend: { display: false } }, scales: { y: { beginAtZero: true, title: { display: true, text: 'activities' } } } },
      });
      $('generation-summary').textContent = sum(decisions.map(function (r) { return r.count; })) + ' decisions, ' +
        sum(acts.map(function (a) { return a.count; })) + ' activities created';
    },
  };

  VIEWS.uplift = {
    load: function (id) {
      return gql('query ConsoleUplift($id: ID!) { upliftReport(activityGenerationConfigID: $id) {' +
        ' windowDays pending warnings treated { decisions } control { decisions }' +
        ' outcomes { outcome treated { n successes rate } control { n successes rate } uplift ciLow ciHigh pValue warning } } }',
      { id: id });
    },
    draw: function (d) {
      var rep = d.upliftReport;
      var outs = rep.outcomes;
      chart('chart-uplift', {
        type: 'bar',
        data: {
          labels: outs.map(function (o) { return o.outcome; }),
          datasets: [
            {
              type: 'line', label: 'uplift', showLine: false, pointRadius: 6, pointStyle: 'rectRot',
              data: outs.map(function (o) { return points(o.uplift); }), borderColor: '#1f2328', backgroundColor: '#1f2328',
            },
            {
              label: '95% interval', barPercentage: 0.25,
              data: outs.map(function (o) { return o.ciLow == null ? null : [points(o.ciLow), points(o.ciHigh)]; }),
              backgroundColor: 'rgba(9, 105, 218, 0.35)', borderColor: '#0969da', borderWidth: 1,
            },
          ],
        },
        options: { scales: { y: { title: { display: true, text: 'points (treated − control)' } } } },
      });
      var group = function (p) { return p ? p.successes + ' / ' + p.n + ' (' + pct(p.rate) + ')' : '—'; };
      table('table-uplift', ['Outcome', 'Treated', 'Control', 'Uplift', '95% interval', 'p-value'], outs.map(function (o) {
        return [o.outcome, group(o.treated), group(o.control), o.uplift == null ? '—' : pts(o.uplift),
          o.ciLow == null ? '—' : pts(o.ciLow) + ' to ' + pts(o.ciHigh), o.pValue == null ? '—' : o.pValue.toFixed(3)];
      }));
      $('uplift-summary').textContent = 'Measured decisions: ' + rep.treated.decisions + ' treated, ' + rep.control.decisions +
        ' control; ' + rep.pending + ' pending (window ' + rep.windowDays + ' days)';
      var notes = rep.warnings.concat(outs.filter(function (o) { return o.warning; }).map(function (o) { return o.outcome + ': ' + o.warning; }));
      $('uplift-warnings').replaceChildren.apply($('uplift-warnings'), notes.map(function (w) {
        var li = document.createElement('li');
        li.textContent = w;
        return li;
      }));
    },
  };

  // ---- the CSV export ------------------------------------------------------

  var ROWS = 'query ConsoleUpliftRows($id: ID!, $after: String, $first: Int) {' +
    ' upliftRows(activityGenerationConfigID: $id, after: $after, first: $first) { hasNextPage endCursor edges { node { ' +
    CSV_COLUMNS.map(function (c) { return c[1]; }).join(' ') + ' } } } }';

  // csvField quotes a field as Go's encoding/csv does (RFC 4180).
  function csvField(v) {
    var s = v == null ? '' : String(v);
    return /[",\r\n]/.test(s) || /^\s/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }

  function csvLine(fields) { return fields.map(csvField).join(',') + '\n'; }

  // exportCSV pages through upliftRows and downloads the rows as the REST
  // export writes them (the same columns, order and quoting).
  function exportCSV() {
    var id = session.agcId;
    var lines = [csvLine(CSV_COLUMNS.map(function (c) { return c[0]; }))];
    var count = 0;
    var page = function (after) {
      return gql(ROWS, { id: id, after: after, first: PAGE }).then(function (d) {
        var p = d.upliftRows;
        p.edges.forEach(function (e) {
          count++;
          lines.push(csvLine(CSV_COLUMNS.map(function (c) { return e.node[c[1]]; })));
        });
        setStatus('Exporting… ' + count + ' rows');
        return p.hasNextPage ? page(p.endCursor) : null;
      });
    };
    $('export-csv').disabled = true;
    page(null).then(function () {
      var url = URL.createObjectURL(new Blob(lines, { type: 'text/csv' }));
      var a = document.createElement('a');
      a.href = url;
      a.download = 'uplift-' + id + '.csv';
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(function () { URL.revokeObjectURL(url); }, 10000);
      setStatus('Exported ' + count + ' rows.');
    }, function (err) {
      setStatus(err.message || String(err), true);
    }).then(function () {
      $('export-csv').disabled = false;
    });
  }

  $('export-csv').addEventListener('click', exportCSV);

  if (session && session.token) showWorkspace();
})();
