// The background jobs panel: the superoptimizer's programs and the profile button (enabled by the GPU the server
// has), the running job's progress bar, fed by the WebSocket and polled should the pushes stop, and cancel.
window.tcx = window.tcx || {};

(function (tcx) {
  'use strict';

  const $ = (id) => document.getElementById(id);
  const POLL_MS = 2000;

  class JobsPanel {
    // state: the page's (status, readOnly, job); page: {busy(step), showError(message)}.
    constructor(api, state, page) {
      this.api = api;
      this.state = state;
      this.page = page;
      this.timer = 0;
      this.lastPush = 0; // when the WebSocket last spoke
      $('superopt-start').onclick = () => this.start({
        kind: 'superopt', program: Number($('superopt-program').value), seconds: Number($('superopt-seconds').value) || 10,
      });
      $('profile-start').onclick = () => this.start({ kind: 'profile' });
      $('job-cancel').onclick = () => state.job && page.busy(async () => this.show(await api.cancelJob(state.job.id)));
    }

    async loadPrograms() {
      const answer = await this.api.programs().catch((e) => ({ programs: [], none: e.message }));
      const options = answer.programs.map((p) => tcx.el('option', { value: p.index, text: p.index + ': ' + p.description }));
      $('superopt-program').replaceChildren(...options);
      $('superopt-start').title = options.length ? '' : answer.none || 'this model has no LAX subprogram to superoptimize';
      this.updateButtons();
    }

    isRunning() {
      return Boolean(this.state.job && this.state.job.state === 'running');
    }

    // The WebSocket spoke: no need to poll for a while.
    heard() {
      this.lastPush = Date.now();
    }

    show(job) {
      const state = this.state;
      const finished = state.job && state.job.id === job.id && state.job.state === 'running' && job.state !== 'running';
      state.job = job;
      const progress = $('job-progress');
      progress.dataset.state = job.state;
      progress.dataset.percent = job.percent || 0;
      progress.querySelector('.bar').style.width = Math.max(0, Math.min(100, job.percent || 0)) + '%';
      progress.querySelector('.text').textContent = job.kind + ' ' + job.state + ' · ' + Math.round(job.percent || 0) + '%' +
        (job.what ? ' · ' + job.what : '');
      $('job-cancel').disabled = state.readOnly || job.state !== 'running';
      this.updateButtons();
      if (job.state === 'failed' && finished) this.page.showError(job.kind + ' failed: ' + (job.what || 'no reason given'));
      // A search shows its candidates (a cancelled one those it found); a profile's measured latencies arrive as a
      // strategy push, like any other change of latencies.
      if (job.kind === 'superopt' && job.state !== 'running' && job.result) tcx.panels.showCandidates($('superopt-result'), job.result);
      this.watch();
    }

    // The WebSocket feeds the progress bar; should it fall silent (a dropped socket, a proxy that does not
    // upgrade), a running job is polled instead, so that the bar never freezes.
    watch() {
      clearTimeout(this.timer);
      if (!this.isRunning()) return;
      this.timer = setTimeout(async () => {
        if (Date.now() - this.lastPush < POLL_MS) return this.watch();
        const answer = await this.api.jobs().catch(() => null);
        const job = answer && answer.jobs.find((j) => j.id === this.state.job.id);
        if (job) this.show(job);
        else this.watch();
      }, POLL_MS);
    }

    updateButtons() {
      const state = this.state;
      const gpu = (state.status && state.status.gpu) || { available: false, describe: 'unknown' };
      const running = this.isRunning();
      $('superopt-start').disabled = state.readOnly || running || !$('superopt-program').options.length;
      $('profile-start').disabled = state.readOnly || running || !gpu.available;
      const reason = gpu.available ? gpu.describe : 'no GPU: ' + (gpu.describe || 'profiling needs CUDA');
      $('profile-reason').textContent = reason;
      $('profile-start').title = reason;
    }

    async start(job) {
      await this.page.busy(async () => {
        $('superopt-result').hidden = true;
        this.show(await this.api.startJob(job));
      });
    }
  }

  tcx.JobsPanel = JobsPanel;
})(window.tcx);
