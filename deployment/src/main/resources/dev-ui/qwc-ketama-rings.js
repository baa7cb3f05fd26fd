import { LitElement, html, css } from 'lit';
import { JsonRpc } from 'jsonrpc';

/**
 * The ketama card: members (weight, features, data centre), each ring's points, bytes and balance,
 * the migration state, the rings as a picture (RingPicture: each member's arcs, its share against its
 * weight share, the v1/v2 split and what its next step moves, the hot keys marked), the heaviest keys entering
 * this member with their rates and owners (where the application counts them), and a box that answers
 * "who owns this key".
 */
export class QwcKetamaRings extends LitElement {

    jsonRpc = new JsonRpc(this);

    static styles = css`
        :host { display: flex; flex-direction: column; gap: 1em; padding: 1em; }
        table { border-collapse: collapse; }
        th, td { text-align: left; padding: 0.2em 0.8em; border-bottom: 1px solid var(--lumo-contrast-10pct); }
        .local { font-weight: bold; }
        .lookup { display: flex; gap: 0.5em; align-items: center; }
        input { padding: 0.3em; }
        .picture { max-width: 100%; height: auto; border: 1px solid var(--lumo-contrast-10pct); }
    `;

    static properties = {
        _rings: { state: true },
        _owner: { state: true },
        _picture: { state: true },
        _hot: { state: true },
    };

    connectedCallback() {
        super.connectedCallback();
        this._refresh();
    }

    _refresh() {
        this.jsonRpc.getRings().then(response => { this._rings = response.result; });
        this.jsonRpc.getHotKeys().then(response => { this._hot = response.result; });
        this.jsonRpc.getPicture().then(response => {
            this._picture = 'data:image/svg+xml;base64,' + btoa(unescape(encodeURIComponent(response.result)));
        });
    }

    _lookup() {
        const key = this.renderRoot.querySelector('#key').value;
        const features = this.renderRoot.querySelector('#features').value;
        this.jsonRpc.owner({ key: key, features: features }).then(response => { this._owner = response.result; });
    }

    _hotKeys() {
        const h = this._hot;
        if (!h) {
            return html`<div>Loading the hot keys…</div>`;
        }
        if (!h.counted) {
            return html`<div id="hot-keys-none">This application counts no hot keys.</div>`;
        }
        if (h.keys.length === 0) {
            return html`<div id="hot-keys-none">No key is hot here now.</div>`;
        }
        return html`<table id="hot-keys">
            <tr><th>key</th><th>requests/s here</th><th>owner</th><th>next candidate</th><th>ring</th></tr>
            ${h.keys.map(k => html`<tr data-key=${k.key} data-owner=${k.owner ?? ''}><td>${k.key}</td><td>${k.rate.toFixed(1)}</td>
                <td>${k.owner ?? 'none'}</td><td>${k.next ?? ''}</td><td>${k.version}</td></tr>`)}
        </table>`;
    }

    render() {
        if (!this._rings) {
            return html`<span>Loading the rings…</span>`;
        }
        const r = this._rings;
        return html`
            <div>Generation ${r.generation}, built ${r.builtAt} in ${r.buildMillis.toFixed(1)} ms (${r.reason})
                <button @click=${() => this._refresh()}>Refresh</button></div>
            ${this._picture ? html`<img class="picture" id="ring-picture" alt="the rings" src=${this._picture}>` : ''}
            <h3>Hot keys</h3>
            ${this._hotKeys()}
            <h3>Members</h3>
            <table>
                <tr><th>address</th><th>identity</th><th>weight</th><th>features</th><th>data centre</th><th>node id</th></tr>
                ${r.members.map(m => html`<tr class=${m.local ? 'local' : ''}>
                    <td>${m.address}</td><td>${m.identity}</td><td>${m.weight}</td><td>${m.features.join(', ')}</td>
                    <td>${m.datacenter}</td><td>${m.nodeId ?? ''}</td></tr>`)}
            </table>
            ${r.excluded.length === 0 ? '' : html`<h3>Left out</h3><table>
                ${r.excluded.map(e => html`<tr><td>${e.address}</td><td>${e.reason}</td></tr>`)}</table>`}
            <h3>Rings</h3>
            <table>
                <tr><th>ring</th><th>points</th><th>bytes</th><th>points per weight</th><th>balance (CoV)</th></tr>
                ${r.rings.map(g => html`<tr><td>${g.version}</td><td>${g.points}</td><td>${g.bytes}</td>
                    <td>${g.pointsPerWeight}</td><td>${g.coefficientOfVariation === null ? '' : g.coefficientOfVariation.toFixed(4)}</td></tr>`)}
            </table>
            <h3>Migration</h3>
            <div>mode ${r.migration.mode}, v2 share ${r.migration.v2SharePercent} %, shadow ${r.migration.shadow ? 'on' : 'off'}</div>
            <h3>Who owns this key?</h3>
            <div class="lookup">
                <input id="key" placeholder="key" @keydown=${e => { if (e.key === 'Enter') this._lookup(); }}>
                <input id="features" placeholder="required features (a,b)">
                <button @click=${() => this._lookup()}>Look up</button>
            </div>
            ${this._owner ? html`<div id="owner-result" data-key=${this._owner.key} data-owner=${this._owner.owner ?? ''}
                    data-ring=${this._owner.version} data-candidates=${this._owner.candidates.join(',')}>${this._owner.owner === null
                ? html`No member has every required feature (ring ${this._owner.version}).`
                : html`<b>${this._owner.owner}</b> on ring ${this._owner.version}; failover order: ${this._owner.candidates.join(' → ')}`}</div>` : ''}
        `;
    }
}
customElements.define('qwc-ketama-rings', QwcKetamaRings);
