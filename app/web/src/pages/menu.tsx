import { useState } from 'preact/hooks';
import { WEEKDAYS } from '../lib/api.gen.ts';
import { DELETE, PATCH, POST, getAll, patchChanged } from '../lib/client.ts';
import { money, moneyInput, parseMoney } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { navigate, queryParam } from '../lib/router.ts';
import { can } from '../lib/session.ts';
import { refId, type Category, type MenuItem, type ModifierGroup, type Station } from '../lib/types.ts';
import { Badge, Button, CheckList, Empty, ErrorNote, Field, FieldSet, Loading, PageHeader, SelectField, Tabs, TextArea, Toggle, useAction, useLoad } from '../ui/kit.tsx';
import { ConfirmDialog } from '../ui/confirm-dialog.tsx';
import { DataTable } from '../ui/data-table.tsx';
import { FieldRefusal, onShownRow } from '../ui/field-problem.ts';
import { FormDialog } from '../ui/form-dialog.tsx';

const DAYS = WEEKDAYS;
const OTHER_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;

interface Menu {
  categories: Category[];
  items: MenuItem[];
  groups: ModifierGroup[];
  stations: Station[];
}

async function loadMenu(): Promise<Menu> {
  const [categories, items, groups, stations] = await Promise.all([
    getAll('/v1/menu_categories', { query: { is_active: false } }),
    getAll('/v1/menu_items', { query: { is_active: false } }),
    getAll('/v1/modifier_groups'),
    getAll('/v1/stations').catch(() => [] as Station[]),
  ]);
  return { categories, items, groups, stations };
}

/** Categories in tree order with their depth: parents before children, siblings by sort order. */
export function categoryTree(categories: Category[]): { cat: Category; depth: number }[] {
  const byParent = new Map<string | null, Category[]>();
  for (const c of categories) {
    const parent = refId(c.parent_category);
    const key = parent && categories.some((x) => x.id === parent) ? parent : null;
    byParent.set(key, [...(byParent.get(key) ?? []), c]);
  }
  const out: { cat: Category; depth: number }[] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const c of (byParent.get(parent) ?? []).sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name))) {
      out.push({ cat: c, depth });
      if (depth < 16) walk(c.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export function MenuPage() {
  const tab = queryParam('tab') ?? 'items';
  const [menu, error, reload] = useLoad(loadMenu);
  return (
    <>
      <PageHeader title={t('menu.title')} />
      <Tabs
        label={t('menu.title')}
        current={tab}
        onChange={(id) => navigate(`/app/menu?tab=${id}`, true)}
        tabs={[
          { id: 'items', label: t('menu.items') },
          { id: 'categories', label: t('menu.categories') },
          { id: 'groups', label: t('menu.groups') },
        ]}
      />
      <ErrorNote error={error} />
      {!menu ? <Loading /> : tab === 'categories' ? <Categories menu={menu} reload={reload} /> : tab === 'groups' ? <Groups menu={menu} reload={reload} /> : <Items menu={menu} reload={reload} />}
    </>
  );
}

function Items({ menu, reload }: { menu: Menu; reload: () => Promise<void> }) {
  const [showRemoved, setShowRemoved] = useState(false);
  const [editing, setEditing] = useState<MenuItem | 'new' | null>(null);
  const [removing, setRemoving] = useState<MenuItem | null>(null);
  const [act, busy, error] = useAction();
  const writable = can('menu:write');
  const tree = categoryTree(menu.categories);

  // The 86 switch: one tap, and every channel (QR menu, API, screens) refuses the item at once.
  const setAvailable = (item: MenuItem, on: boolean) => act(async () => (await PATCH('/v1/menu_items/{id}', { path: { id: item.id }, body: { is_available: on } }), await reload()));
  const restore = (item: MenuItem) => act(async () => (await PATCH('/v1/menu_items/{id}', { path: { id: item.id }, body: { is_active: true } }), await reload()));
  const remove = async (item: MenuItem) => {
    if (await act(async () => (await DELETE('/v1/menu_items/{id}', { path: { id: item.id } }), await reload()))) setRemoving(null);
  };

  return (
    <section>
      <div class="toolbar">
        {writable ? (
          <Button variant="primary" onClick={() => setEditing('new')} disabled={menu.categories.length === 0}>
            {t('menu.newItem')}
          </Button>
        ) : null}
        <Toggle label={t('menu.showRemoved')} checked={showRemoved} onChange={setShowRemoved} />
      </div>
      {menu.categories.length === 0 ? <Empty>{t('menu.noCategories')}</Empty> : null}
      <ErrorNote error={error} />
      {tree.map(({ cat, depth }) => {
        const items = menu.items.filter((i) => i.category === cat.id && (showRemoved || i.is_active)).sort((a, b) => a.sort_order - b.sort_order || a.name.localeCompare(b.name));
        if (!items.length) return null;
        return (
          <section class="menu-section" key={cat.id}>
            <h2 style={{ marginLeft: `${depth}rem` }}>
              {cat.name} {!cat.is_active ? <Badge tone="bad">{t('menu.inactive')}</Badge> : null}
            </h2>
            <DataTable
              rows={items}
              rowKey={(i) => i.id}
              rowClass={(i) => `${!i.is_available ? 'is-86' : ''} ${!i.is_active ? 'is-removed' : ''}`.trim()}
              columns={[
                {
                  label: t('col.item'),
                  cell: (i) => (
                    <>
                      <strong>{i.name}</strong>
                      {i.allergens.length ? (
                        <span class="muted block">
                          {t('menu.allergens')}: {i.allergens.join(', ')}
                        </span>
                      ) : null}
                    </>
                  ),
                },
                {
                  label: t('col.details'),
                  cell: (i) => (
                    <span class="muted">
                      {money(i.price)}
                      {i.modifier_groups.length ? ` · ${i.modifier_groups.map((g) => menu.groups.find((x) => x.id === g)?.name ?? g).join(', ')}` : ''}
                      {i.station ? ` · ${t('menu.itemStation')}: ${stationNameOf(menu, i.station)}` : ''}
                    </span>
                  ),
                },
              ]}
              actions={(i) =>
                i.is_active ? (
                  <>
                    <Toggle label={i.is_available ? t('menu.available') : t('menu.eightySixed')} checked={i.is_available} disabled={!writable || busy} onChange={(on) => setAvailable(i, on)} />
                    {writable ? (
                      <Button onClick={() => setEditing(i)} aria-label={t('menu.editNamed', { name: i.name })}>
                        {t('common.edit')}
                      </Button>
                    ) : null}
                    {writable ? (
                      <Button variant="quiet" onClick={() => setRemoving(i)} aria-label={t('menu.removeNamed', { name: i.name })}>
                        {t('common.remove')}
                      </Button>
                    ) : null}
                  </>
                ) : writable ? (
                  <Button onClick={() => restore(i)} aria-label={t('menu.restoreNamed', { name: i.name })}>
                    {t('menu.restore')}
                  </Button>
                ) : null
              }
            />
          </section>
        );
      })}
      <ConfirmDialog
        title={t('menu.removeNamed', { name: removing?.name ?? '' })}
        message={t('form.removeItem', { name: removing?.name ?? '' })}
        confirmLabel={t('common.remove')}
        open={removing !== null}
        busy={busy}
        error={error}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove(removing)}
      />
      {editing ? <ItemDialog menu={menu} item={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} /> : null}
    </section>
  );
}

const stationNameOf = (menu: Menu, key: string | undefined) => (key ? (menu.stations.find((s) => s.key === key)?.name ?? key) : '—');

function ItemDialog({ menu, item, onClose, onSaved }: { menu: Menu; item: MenuItem | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const activeCats = categoryTree(menu.categories).filter((c) => c.cat.is_active);
  const [form, setForm] = useState({
    name: item?.name ?? '',
    category: refId(item?.category) ?? activeCats[0]?.cat.id ?? '',
    price: moneyInput(item?.price ?? null),
    cost: moneyInput(item?.cost ?? null),
    tax: item?.tax_rate === null || item?.tax_rate === undefined ? '' : String(Math.round(item.tax_rate * 10000) / 100),
    description: item?.description ?? '',
    allergens: (item?.allergens ?? []).join(', '),
    image_url: item?.image_url ?? '',
    groups: new Set((item?.modifier_groups ?? []).map((g) => refId(g)!)),
    // '' = the category's station
    station: item?.station ?? '',
    translations: Object.fromEntries(OTHER_LANGUAGES.map((l) => [l, item?.translations?.[l]?.name ?? ''])) as Record<string, string>,
  });
  // an edit sends only what changed since the dialog opened (see changedFields)
  const [opened] = useState(form);
  const text = (k: 'name' | 'price' | 'cost' | 'tax' | 'description' | 'allergens' | 'image_url') => ({
    value: form[k],
    onInput: (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value }),
  });

  const bodyOf = (f: typeof form) => {
    const translations: Record<string, { name: string }> = { ...(item?.translations as Record<string, { name: string }>) };
    for (const l of OTHER_LANGUAGES) {
      if (f.translations[l].trim()) translations[l] = { ...translations[l], name: f.translations[l].trim() };
      else delete translations[l];
    }
    return {
      name: f.name,
      category: f.category,
      price: parseMoney(f.price)!, // save refuses an empty price before it builds the body
      cost: f.cost.trim() ? parseMoney(f.cost) : null,
      tax_rate: f.tax.trim() ? Number(f.tax.replace(',', '.')) / 100 : null,
      description: f.description.trim() || null,
      allergens: f.allergens.split(',').map((s) => s.trim()).filter(Boolean),
      image_url: f.image_url.trim() || null,
      modifier_groups: [...f.groups],
      station: f.station || null,
      translations,
    };
  };

  const save = async () => {
    // amounts are checked here, where the reader's decimal comma is understood
    const tax = form.tax.trim() ? Number(form.tax.replace(',', '.')) / 100 : null;
    if (parseMoney(form.price) === null) throw new FieldRefusal('price', t('menu.badAmount'));
    if (form.cost.trim() && parseMoney(form.cost) === null) throw new FieldRefusal('cost', t('menu.badAmount'));
    if (tax !== null && !(tax >= 0 && tax <= 1)) throw new FieldRefusal('tax_rate', t('menu.badTax'));
    const body = bodyOf(form);
    await (item ? patchChanged('/v1/menu_items/{id}', { path: { id: item.id } }, body, bodyOf(opened)) : POST('/v1/menu_items', { body: body }));
    await onSaved();
    onClose();
  };

  return (
    <FormDialog title={item ? t('menu.editItem') : t('menu.newItem')} onClose={onClose} onSubmit={save} invalid={{ price: t('menu.badAmount'), cost: t('menu.badAmount'), tax_rate: t('menu.badTax') }}>
      <Field label={t('menu.name')} name="name" required {...text('name')} />
      <SelectField label={t('menu.category')} name="category" value={form.category} onChange={(v) => setForm({ ...form, category: v })} options={activeCats.map(({ cat, depth }) => ({ value: cat.id, label: `${'— '.repeat(depth)}${cat.name}` }))} />
      <SelectField
        label={t('menu.itemStation')}
        name="station"
        value={form.station}
        onChange={(v) => setForm({ ...form, station: v })}
        options={[
          { value: '', label: t('menu.categoryStation', { name: stationNameOf(menu, menu.categories.find((c) => c.id === form.category)?.station) }) },
          ...menu.stations.filter((s) => s.is_active || s.key === form.station).map((s) => ({ value: s.key, label: s.name })),
        ]}
      />
      <div class="row">
        <Field label={t('menu.price')} name="price" required inputMode="decimal" {...text('price')} />
        <Field label={t('menu.cost')} name="cost" inputMode="decimal" {...text('cost')} />
        <Field label={t('menu.tax')} name="tax_rate" inputMode="decimal" hint={t('menu.taxHint')} {...text('tax')} />
      </div>
      <TextArea label={t('menu.description')} name="description" value={form.description} onInput={(v) => setForm({ ...form, description: v })} />
      <Field label={t('menu.allergens')} name="allergens" hint={t('menu.allergensHint')} {...text('allergens')} />
      <Field label={t('menu.imageUrl')} name="image_url" type="url" {...text('image_url')} />
      {menu.groups.length ? (
        <CheckList legend={t('menu.groups')} name="modifier_groups" options={menu.groups.map((g) => ({ value: g.id, label: g.name }))} selected={form.groups} onChange={(next) => setForm({ ...form, groups: next })} />
      ) : null}
      <FieldSet legend={t('menu.translations')} name="translations">
        <div class="row">
          {OTHER_LANGUAGES.map((l) => (
            <Field
              key={l}
              name={`translations.${l}.name`}
              label={t('menu.nameIn', { lang: l.toUpperCase() })}
              value={form.translations[l]}
              onInput={(e) => setForm({ ...form, translations: { ...form.translations, [l]: (e.target as HTMLInputElement).value } })}
            />
          ))}
        </div>
      </FieldSet>
    </FormDialog>
  );
}

function Categories({ menu, reload }: { menu: Menu; reload: () => Promise<void> }) {
  const [editing, setEditing] = useState<Category | 'new' | null>(null);
  const [act, busy, error] = useAction();
  const writable = can('menu:write');
  const tree = categoryTree(menu.categories);

  /** Swaps places with the sibling above or below (sort orders rewritten 10, 20, 30 … so they stay apart). */
  const moveBy = (cat: Category, delta: -1 | 1) =>
    act(async () => {
      const siblings = tree.filter((x) => x.cat.parent_category === cat.parent_category).map((x) => x.cat);
      const i = siblings.findIndex((s) => s.id === cat.id);
      const j = i + delta;
      if (j < 0 || j >= siblings.length) return;
      [siblings[i], siblings[j]] = [siblings[j], siblings[i]];
      for (let k = 0; k < siblings.length; k++) if (siblings[k].sort_order !== (k + 1) * 10) await PATCH('/v1/menu_categories/{id}', { path: { id: siblings[k].id }, body: { sort_order: (k + 1) * 10 } });
      await reload();
    });
  const setActive = (cat: Category, on: boolean) => act(async () => (await PATCH('/v1/menu_categories/{id}', { path: { id: cat.id }, body: { is_active: on } }), await reload()));

  return (
    <section>
      {writable ? (
        <div class="toolbar">
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('menu.newCategory')}
          </Button>
        </div>
      ) : null}
      <ErrorNote error={error} />
      <DataTable
        rows={tree}
        rowKey={({ cat }) => cat.id}
        rowClass={({ cat }) => (cat.is_active ? '' : 'is-removed')}
        empty={t('menu.noCategories')}
        label={t('menu.categories')}
        columns={[
          { label: t('menu.name'), cell: ({ cat, depth }) => <strong style={{ paddingLeft: `${depth * 1.5}rem` }}>{cat.name}</strong> },
          { label: t('menu.station'), cell: ({ cat }) => menu.stations.find((s) => s.key === cat.station)?.name ?? cat.station },
          {
            label: t('col.when'),
            cell: ({ cat }) => (
              <span class="muted">
                {cat.available_from && cat.available_until ? `${cat.available_from}–${cat.available_until}` : ''}
                {cat.available_days.length < 7 ? ` · ${cat.available_days.map((d) => t(`day.${d}` as Key)).join(', ')}` : ''}
              </span>
            ),
          },
        ]}
        actions={
          writable
            ? ({ cat }) => (
                <>
                  <Button variant="quiet" disabled={busy} onClick={() => moveBy(cat, -1)} aria-label={t('menu.moveUp', { name: cat.name })}>
                    ↑
                  </Button>
                  <Button variant="quiet" disabled={busy} onClick={() => moveBy(cat, 1)} aria-label={t('menu.moveDown', { name: cat.name })}>
                    ↓
                  </Button>
                  <Toggle label={t('menu.active')} checked={cat.is_active} disabled={busy} onChange={(on) => setActive(cat, on)} />
                  <Button onClick={() => setEditing(cat)} aria-label={t('menu.editNamed', { name: cat.name })}>
                    {t('common.edit')}
                  </Button>
                </>
              )
            : null
        }
      />
      {editing ? <CategoryDialog menu={menu} cat={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} /> : null}
    </section>
  );
}

function CategoryDialog({ menu, cat, onClose, onSaved }: { menu: Menu; cat: Category | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const [form, setForm] = useState({
    name: cat?.name ?? '',
    parent: refId(cat?.parent_category) ?? '',
    station: cat?.station ?? menu.stations.find((s) => s.is_active)?.key ?? 'kitchen',
    from: cat?.available_from ?? '',
    until: cat?.available_until ?? '',
    days: new Set<string>(cat?.available_days ?? DAYS),
  });
  const [opened] = useState(form);
  const bodyOf = (f: typeof form) => ({
    name: f.name,
    parent_category: f.parent || null,
    station: f.station,
    available_from: f.from || null,
    available_until: f.until || null,
    available_days: DAYS.filter((d) => f.days.has(d)),
  });
  const save = async () => {
    const body = bodyOf(form);
    const sort_order = (menu.categories.filter((c) => (c.parent_category ?? '') === form.parent).length + 1) * 10;
    await (cat ? patchChanged('/v1/menu_categories/{id}', { path: { id: cat.id } }, body, bodyOf(opened)) : POST('/v1/menu_categories', { body: { ...body, sort_order } }));
    await onSaved();
    onClose();
  };
  const parents = categoryTree(menu.categories).filter((c) => c.cat.id !== cat?.id);
  return (
    <FormDialog title={cat ? t('menu.editCategory') : t('menu.newCategory')} onClose={onClose} onSubmit={save}>
      <Field label={t('menu.name')} name="name" required value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
      <SelectField
        label={t('menu.parent')}
        name="parent_category"
        value={form.parent}
        onChange={(v) => setForm({ ...form, parent: v })}
        options={[{ value: '', label: t('menu.topLevel') }, ...parents.map(({ cat: c, depth }) => ({ value: c.id, label: `${'— '.repeat(depth)}${c.name}` }))]}
      />
      <SelectField label={t('menu.station')} name="station" value={form.station} onChange={(v) => setForm({ ...form, station: v })} options={menu.stations.filter((s) => s.is_active).map((s) => ({ value: s.key, label: s.name }))} />
      <div class="row">
        <Field label={t('menu.from')} name="available_from" type="time" value={form.from} onInput={(e) => setForm({ ...form, from: (e.target as HTMLInputElement).value })} />
        <Field label={t('menu.until')} name="available_until" type="time" value={form.until} onInput={(e) => setForm({ ...form, until: (e.target as HTMLInputElement).value })} />
      </div>
      <CheckList legend={t('menu.days')} name="available_days" options={DAYS.map((d) => ({ value: d, label: t(`day.${d}` as Key) }))} selected={form.days} onChange={(next) => setForm({ ...form, days: next })} />
    </FormDialog>
  );
}

function Groups({ menu, reload }: { menu: Menu; reload: () => Promise<void> }) {
  const [editing, setEditing] = useState<ModifierGroup | 'new' | null>(null);
  const writable = can('menu:write');
  return (
    <section>
      {writable ? (
        <div class="toolbar">
          <Button variant="primary" onClick={() => setEditing('new')}>
            {t('menu.newGroup')}
          </Button>
        </div>
      ) : null}
      <DataTable
        rows={menu.groups}
        rowKey={(g) => g.id}
        empty={t('menu.noGroups')}
        label={t('menu.groups')}
        columns={[
          { label: t('menu.name'), cell: (g) => <strong>{g.name}</strong> },
          { label: t('col.details'), cell: (g) => `${g.required ? t('menu.required') : t('menu.optional')} · ${t('menu.bounds', { min: g.min_selections, max: g.max_selections })}` },
          { label: t('menu.modifiers'), cell: (g) => <span class="muted">{g.modifiers.map((m) => (m.price_adjustment ? `${m.name} (+${money(m.price_adjustment)})` : m.name)).join(', ')}</span> },
        ]}
        actions={
          writable
            ? (g) => (
                <Button onClick={() => setEditing(g)} aria-label={t('menu.editNamed', { name: g.name })}>
                  {t('common.edit')}
                </Button>
              )
            : null
        }
      />
      {editing ? <GroupDialog group={editing === 'new' ? null : editing} onClose={() => setEditing(null)} onSaved={reload} /> : null}
    </section>
  );
}

function GroupDialog({ group, onClose, onSaved }: { group: ModifierGroup | null; onClose: () => void; onSaved: () => Promise<void> }) {
  const [name, setName] = useState(group?.name ?? '');
  const [required, setRequired] = useState(group?.required ?? false);
  const [min, setMin] = useState(String(group?.min_selections ?? 0));
  const [max, setMax] = useState(String(group?.max_selections ?? 1));
  const [mods, setMods] = useState((group?.modifiers ?? [{ name: '', price_adjustment: 0 }]).map((m) => ({ name: m.name, price: moneyInput(m.price_adjustment) })));
  const [opened] = useState(() => ({ name, required, min, max, mods }));
  const bodyOf = (f: typeof opened) => ({
    name: f.name,
    required: f.required,
    min_selections: Number(f.min),
    max_selections: Number(f.max),
    modifiers: f.mods.filter((m) => m.name.trim()).map((m) => ({ name: m.name.trim(), price_adjustment: parseMoney(m.price || '0') ?? 0 })),
  });
  // the screen rows of the choices sent: empty rows are left out, so the API numbers only the named ones
  const sent = mods.flatMap((m, i) => (m.name.trim() ? [i] : []));
  const save = async () => {
    const body = bodyOf({ name, required, min, max, mods });
    try {
      await (group ? patchChanged('/v1/modifier_groups/{id}', { path: { id: group.id } }, body, bodyOf(opened)) : POST('/v1/modifier_groups', { body: body }));
    } catch (err) {
      throw onShownRow(err, 'modifiers', sent);
    }
    await onSaved();
    onClose();
  };
  // the API checks the bounds against each other and the choices: said here with the numbers the reader typed
  const invalid: Record<string, string> = { max_selections: t('form.atLeast', { min: Math.max(Number(min) || 0, required ? 1 : 0) }), min_selections: t('form.atMost', { max: sent.length }) };
  // and refuses the later of two choices with the same name, in any case
  const key = (row: number) => mods[row].name.trim().toLowerCase();
  sent.forEach((row, k) => {
    if (sent.slice(0, k).some((r) => key(r) === key(row))) invalid[`modifiers[${row}].name`] = t('menu.choiceTwice');
  });
  return (
    <FormDialog title={group ? t('menu.editGroup') : t('menu.newGroup')} onClose={onClose} onSubmit={save} invalid={invalid}>
      <Field label={t('menu.name')} name="name" required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
      <Toggle label={t('menu.required')} checked={required} onChange={setRequired} />
      <div class="row">
        <Field label={t('menu.min')} name="min_selections" type="number" min={0} value={min} onInput={(e) => setMin((e.target as HTMLInputElement).value)} />
        <Field label={t('menu.max')} name="max_selections" type="number" min={1} value={max} onInput={(e) => setMax((e.target as HTMLInputElement).value)} />
      </div>
      <FieldSet legend={t('menu.modifiers')} name="modifiers">
        {mods.map((m, i) => (
          <div class="row" key={i}>
            <Field label={t('menu.modifierN', { n: i + 1 })} name={`modifiers[${i}].name`} value={m.name} onInput={(e) => setMods(mods.map((x, j) => (j === i ? { ...x, name: (e.target as HTMLInputElement).value } : x)))} />
            <Field label={t('menu.surcharge')} name={`modifiers[${i}].price_adjustment`} inputMode="decimal" value={m.price} onInput={(e) => setMods(mods.map((x, j) => (j === i ? { ...x, price: (e.target as HTMLInputElement).value } : x)))} />
          </div>
        ))}
        <Button onClick={() => setMods([...mods, { name: '', price: '' }])}>{t('menu.addModifier')}</Button>
      </FieldSet>
    </FormDialog>
  );
}
