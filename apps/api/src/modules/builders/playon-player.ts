/**
 * PlayOn's outstream player script (`GET /v1/public/serve/playon.js`; decision 040). It runs on
 * publishers' pages, so it is plain ES5-style JavaScript kept as text here (it is never run by the
 * API; the e2e test runs it in Chromium and the API test compiles it). It finds every
 * `<div class="bo-playon" data-bo-playon=…>` the PlayOn builder renders (core builders/playon.ts
 * names the data-* attributes) and for each:
 *   1. respects the frequency cap (plays per visitor and day, in localStorage when it is allowed);
 *   2. places itself: after paragraph N of the article around it, fixed in a corner, or in place;
 *   3. asks the page's CMP for TCF, GPP and US privacy when the tag says so (as the JS tag does),
 *      and adds the signals to the VAST URL (gdpr, gdpr_consent, gpp, gpp_sid, us_privacy);
 *   4. reads the VAST (fetch, DOMParser), following Wrappers up to 5 deep, collecting every
 *      Impression, Error and TrackingEvents URL on the way; picks the progressive mp4 or webm
 *      MediaFile this browser plays whose width is nearest the player's;
 *   5. plays it muted once the viewability threshold of the player is on screen (pausing below
 *      it), or on a click for click-to-play; fires Impression and start when the first frame
 *      plays, firstQuartile, midpoint, thirdQuartile and complete, mute/unmute, pause/resume,
 *      skip, close; the VAST Error URLs with [ERRORCODE] when something fails, and collapses.
 * Texts come from the i18n catalogues (English and Spanish, by the page's language).
 */
import { translate, type Locale } from '@backoffice/core/i18n/catalogues';

const TEXT_KEYS = ['ad', 'region', 'close', 'skip', 'skip_in', 'play', 'sound_on', 'sound_off'] as const;

function texts(): Record<Locale, Record<string, string>> {
  const of = (locale: Locale) => Object.fromEntries(TEXT_KEYS.map((k) => [k, translate(locale, `playon.player.${k}`)]));
  return { en: of('en'), es: of('es') };
}

const SOURCE = String.raw`
(function () {
  'use strict';
  var TEXT = __TEXT__;
  var VAST_DEMO_PATH = '/v1/public/serve/vast-demo.xml';
  var QUARTILES = [[0.25, 'firstQuartile'], [0.5, 'midpoint'], [0.75, 'thirdQuartile']];
  var script = document.currentScript;
  var scriptOrigin = script && script.src ? new URL(script.src, document.baseURI).origin : location.origin;

  function say(key, value) {
    var lang = (document.documentElement.lang || navigator.language || 'en').slice(0, 2).toLowerCase();
    var t = (TEXT[lang] || TEXT.en)[key] || key;
    return value === undefined ? t : t.split('{seconds}').join(String(value));
  }
  function given(v) {
    return typeof v === 'string' && v !== '' && !/^(%%[A-Z0-9_]+%%|\$\{[A-Z0-9_]+\})$/.test(v);
  }
  function withMacros(url, errorCode) {
    return url
      .replace(/\[CACHEBUSTING\]/g, String(Math.floor(Math.random() * 1e8)))
      .replace(/\[TIMESTAMP\]/g, encodeURIComponent(new Date().toISOString()))
      .replace(/\[ERRORCODE\]/g, String(errorCode || ''));
  }
  function ping(urls, errorCode) {
    urls.forEach(function (url) { new Image().src = withMacros(url, errorCode); });
  }

  // ------------------------------------------------------------------ frequency cap
  function capKey(d) { return 'bo-playon-fc:' + (d.unit || ''); }
  function today() { return new Date().toISOString().slice(0, 10); }
  function capReached(d) {
    var cap = Number(d.frequencyCap);
    if (!cap) return false;
    try {
      var seen = JSON.parse(localStorage.getItem(capKey(d)) || '{}');
      return seen.day === today() && seen.count >= cap;
    } catch (e) { return false; }
  }
  function countPlay(d) {
    if (!Number(d.frequencyCap)) return;
    try {
      var seen = JSON.parse(localStorage.getItem(capKey(d)) || '{}');
      var count = seen.day === today() ? seen.count + 1 : 1;
      localStorage.setItem(capKey(d), JSON.stringify({ day: today(), count: count }));
    } catch (e) { /* storage refused: no cap */ }
  }

  // ------------------------------------------------------------------ consent (as the JS tag)
  function withConsent(d, url, done) {
    var q = url.searchParams;
    var waiting = 1;
    function put(name, value) { if (given(value)) q.set(name, value); }
    put('gdpr', d.gdpr);
    put('gdpr_consent', d.gdprConsent);
    put('gpp', d.gppString);
    put('gpp_sid', d.gppSid);
    put('us_privacy', d.usPrivacy);
    function answered() { waiting -= 1; if (waiting === 0) done(url); }
    function ask(api, lookup) {
      if (typeof window[api] !== 'function') return;
      var over = false;
      function finish() { if (!over) { over = true; answered(); } }
      waiting += 1;
      setTimeout(finish, Number(d.consentTimeout) || 500);
      try { lookup(window[api], function (set) { if (!over) set(); finish(); }); } catch (e) { finish(); }
    }
    if (d.tcf === 'cmp') ask('__tcfapi', function (api, reply) {
      api('addEventListener', 2, function (tc, success) {
        if (!success || !tc) return reply(function () {});
        if (tc.eventStatus !== 'tcloaded' && tc.eventStatus !== 'useractioncomplete') return;
        reply(function () { q.set('gdpr', tc.gdprApplies ? '1' : '0'); put('gdpr_consent', tc.tcString); });
        if (tc.listenerId !== undefined) api('removeEventListener', 2, function () {}, tc.listenerId);
      });
    });
    if (d.gpp === 'cmp') ask('__gpp', function (api, reply) {
      api('addEventListener', function (event, success) {
        var p = event && event.pingData;
        if (!success || !p) return reply(function () {});
        if (p.signalStatus !== 'ready') return;
        reply(function () {
          put('gpp', p.gppString);
          var sections = (p.applicableSections || []).filter(function (s) { return s > 0; });
          if (sections.length) q.set('gpp_sid', sections.join(','));
        });
      });
    });
    if (d.usp === 'cmp') ask('__uspapi', function (api, reply) {
      api('getUSPData', 1, function (data, success) { reply(function () { if (success && data) put('us_privacy', data.uspString); }); });
    });
    answered();
  }

  // ------------------------------------------------------------------ VAST
  function texts(parent, selector, base) {
    return Array.prototype.map.call(parent.querySelectorAll(selector), function (node) {
      return node.textContent.trim();
    }).filter(Boolean).map(function (u) { return new URL(u, base).href; });
  }
  function seconds(value) {
    var m = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec((value || '').trim());
    return m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
  }
  function readVast(url, depth, ad, done) {
    fetch(url, { credentials: 'omit' }).then(function (response) {
      if (!response.ok) throw { code: depth ? 301 : 303 };
      return response.text();
    }).then(function (xml) {
      var doc = new DOMParser().parseFromString(xml, 'text/xml');
      if (doc.querySelector('parsererror')) throw { code: 100 };
      var node = doc.querySelector('VAST > Ad');
      if (!node) throw { code: 303 };
      ad.impressions = ad.impressions.concat(texts(node, 'Impression', url));
      ad.errors = ad.errors.concat(texts(node, 'Error', url));
      Array.prototype.forEach.call(node.querySelectorAll('Linear TrackingEvents Tracking'), function (t) {
        var event = t.getAttribute('event');
        var link = t.textContent.trim();
        if (event && link) (ad.tracking[event] = ad.tracking[event] || []).push(new URL(link, url).href);
      });
      ad.clickTracking = ad.clickTracking.concat(texts(node, 'Linear VideoClicks ClickTracking', url));
      var wrapper = node.querySelector('Wrapper > VASTAdTagURI');
      if (wrapper) {
        if (depth >= 5) throw { code: 302 };
        return readVast(new URL(wrapper.textContent.trim(), url).href, depth + 1, ad, done);
      }
      var linear = node.querySelector('InLine Linear');
      if (!linear) throw { code: 201 };
      ad.clickThrough = texts(linear, 'VideoClicks ClickThrough', url)[0] || '';
      ad.duration = seconds((linear.querySelector('Duration') || {}).textContent);
      ad.media = Array.prototype.map.call(linear.querySelectorAll('MediaFiles MediaFile'), function (m) {
        return { url: new URL(m.textContent.trim(), url).href, type: m.getAttribute('type') || '', delivery: m.getAttribute('delivery') || 'progressive', width: Number(m.getAttribute('width')) || 0 };
      });
      done(null, ad);
    }).catch(function (failure) { done(failure && failure.code ? failure.code : 301, ad); });
  }
  function pickMedia(video, files, width) {
    return files.filter(function (f) {
      return f.delivery === 'progressive' && (f.type === 'video/mp4' || f.type === 'video/webm') && video.canPlayType(f.type) !== '';
    }).sort(function (a, b) { return Math.abs(a.width - width) - Math.abs(b.width - width); })[0];
  }

  // ------------------------------------------------------------------ the player
  function element(tag, style, attrs) {
    var el = document.createElement(tag);
    Object.keys(style || {}).forEach(function (k) { el.style[k] = style[k]; });
    Object.keys(attrs || {}).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    return el;
  }
  function button(label, accent, style) {
    var b = element('button', Object.assign({
      position: 'absolute', border: '0', borderRadius: '4px', padding: '6px 10px', font: '600 13px/1.2 system-ui, sans-serif',
      color: '#fff', background: 'rgba(0, 0, 0, 0.72)', cursor: 'pointer', outlineColor: accent
    }, style), { type: 'button' });
    b.textContent = label;
    return b;
  }
  function place(slot, d, width, height) {
    if (d.boPlayon === 'in_article') {
      var article = slot.closest('article') || slot.parentElement;
      var paragraphs = article ? article.querySelectorAll('p') : [];
      var target = paragraphs[Math.min(Number(d.paragraph) || 1, paragraphs.length) - 1];
      if (target) target.parentNode.insertBefore(slot, target.nextSibling);
      slot.style.width = '100%';
      slot.style.maxWidth = width + 'px';
      slot.style.margin = '16px auto';
    } else if (d.boPlayon === 'sticky') {
      var corner = (d.corner || 'bottom_right').split('_');
      slot.style.position = 'fixed';
      slot.style[corner[0]] = '16px';
      slot.style[corner[1]] = '16px';
      slot.style.width = 'min(' + width + 'px, calc(100vw - 32px))';
      slot.style.zIndex = '2147483000';
      slot.style.boxShadow = '0 4px 16px rgba(0, 0, 0, 0.35)';
    } else {
      slot.style.width = width + 'px';
      slot.style.maxWidth = '100%';
    }
    slot.style.aspectRatio = width + ' / ' + height;
    slot.style.display = 'block';
  }

  function build(slot) {
    slot.setAttribute('data-bo-ready', '');
    var d = slot.dataset;
    if (capReached(d)) return;
    var width = Number(d.width) || 640;
    var height = Number(d.height) || 360;
    var accent = d.accent || '#e4007c';
    var threshold = Math.min(Math.max(Number(d.viewability) || 0, 0), 100) / 100;
    var closeAfter = d.closeAfter === undefined ? -1 : Number(d.closeAfter);
    var skipAfter = d.skipAfter === undefined ? -1 : Number(d.skipAfter);
    var clickToPlay = d.autoplay === 'click';
    place(slot, d, width, height);

    var box = element('div', { position: 'relative', width: '100%', height: '100%', overflow: 'hidden', background: d.background || '#000' },
      { role: 'region', 'aria-label': say('region') });
    var video = element('video', { width: '100%', height: '100%', objectFit: 'contain', display: 'block', cursor: 'pointer' }, { playsinline: '', preload: 'metadata' });
    video.muted = true;
    var label = element('span', { position: 'absolute', left: '8px', top: '8px', padding: '2px 6px', borderRadius: '3px', font: '600 11px/1.4 system-ui, sans-serif', color: '#fff', background: 'rgba(0, 0, 0, 0.72)' });
    label.textContent = say('ad');
    var bar = element('div', { position: 'absolute', left: '0', bottom: '0', height: '4px', width: '0', background: accent });
    var sound = button(say('sound_on'), accent, { left: '8px', bottom: '12px' });
    var close = button(say('close'), accent, { right: '8px', top: '8px', display: 'none' });
    var skip = button('', accent, { right: '8px', bottom: '12px', display: 'none' });
    var play = button(say('play'), accent, { left: '50%', top: '50%', transform: 'translate(-50%, -50%)', fontSize: '16px', padding: '10px 18px', display: clickToPlay ? 'block' : 'none' });
    [video, label, bar, sound, close, skip, play].forEach(function (el) { box.appendChild(el); });
    slot.appendChild(box);

    var ad = { impressions: [], errors: [], tracking: {}, clickTracking: [], clickThrough: '', media: [], duration: NaN };
    var started = false, finished = false, fired = {}, visible = false, userPaused = false;

    function track(event) {
      if (fired[event] && event !== 'mute' && event !== 'unmute' && event !== 'pause' && event !== 'resume') return;
      fired[event] = true;
      ping(ad.tracking[event] || []);
    }
    function collapse() {
      finished = true;
      video.pause();
      if (observer) observer.disconnect();
      slot.parentNode && slot.parentNode.removeChild(slot);
    }
    function fail(code) {
      ping(ad.errors, code);
      collapse();
    }
    var observer = null;

    withConsent(d, new URL(d.vast || (d.server || scriptOrigin) + VAST_DEMO_PATH, document.baseURI), function (vastUrl) {
      readVast(vastUrl.href, 0, ad, function (code) {
        if (code) return fail(code);
        var media = pickMedia(video, ad.media, width);
        if (!media) return fail(403);
        video.src = media.url;
        video.addEventListener('error', function () { if (!finished) fail(405); });
        observer = new IntersectionObserver(function (entries) {
          visible = entries[entries.length - 1].intersectionRatio >= threshold && entries[entries.length - 1].isIntersecting;
          if (finished) return;
          if (visible && !userPaused && (started || !clickToPlay)) video.play().catch(function () { play.style.display = 'block'; });
          else if (!visible && started && !video.paused) video.pause();
        }, { threshold: [0, threshold, 1].filter(function (t, i, all) { return all.indexOf(t) === i; }) });
        observer.observe(box);
      });
    });

    play.addEventListener('click', function () {
      play.style.display = 'none';
      userPaused = false;
      video.play();
    });
    video.addEventListener('playing', function () {
      if (started) return track('resume');
      started = true;
      countPlay(d);
      ping(ad.impressions);
      track('creativeView');
      track('start');
      var shown = Date.now();
      var timer = setInterval(function () {
        if (finished) return clearInterval(timer);
        var elapsed = (Date.now() - shown) / 1000;
        if (closeAfter >= 0 && elapsed >= closeAfter) close.style.display = 'block';
        if (skipAfter >= 0) {
          skip.style.display = 'block';
          var left = Math.ceil(skipAfter - video.currentTime);
          skip.disabled = left > 0;
          skip.textContent = left > 0 ? say('skip_in', left) : say('skip');
        }
      }, 250);
    });
    video.addEventListener('pause', function () { if (started && !finished && !video.ended) track('pause'); });
    video.addEventListener('timeupdate', function () {
      var duration = video.duration || ad.duration;
      if (!duration) return;
      var share = video.currentTime / duration;
      bar.style.width = Math.min(100, share * 100) + '%';
      QUARTILES.forEach(function (q) { if (share >= q[0]) track(q[1]); });
    });
    video.addEventListener('ended', function () {
      track('complete');
      collapse();
    });
    video.addEventListener('click', function () {
      if (!started) return;
      ping(ad.clickTracking);
      if (ad.clickThrough) window.open(ad.clickThrough, '_blank', 'noopener');
    });
    sound.addEventListener('click', function () {
      video.muted = !video.muted;
      sound.textContent = say(video.muted ? 'sound_on' : 'sound_off');
      track(video.muted ? 'mute' : 'unmute');
    });
    close.addEventListener('click', function () {
      track('closeLinear');
      track('close');
      collapse();
    });
    skip.addEventListener('click', function () {
      track('skip');
      collapse();
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('div.bo-playon[data-bo-playon]:not([data-bo-ready])'), build);
})();
`;

let cached: string | null = null;

/** The player script with its texts, built once per process. */
export function playonPlayerScript(): string {
  cached ??= SOURCE.replace('__TEXT__', JSON.stringify(texts()).replace(/</g, '\\u003c'));
  return cached;
}
