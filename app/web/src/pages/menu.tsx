import { useState } from 'preact/hooks';
import { del, getAll, patch, patchChanged, post } from '../lib/api.ts';
import { money, moneyInput, parseMoney } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { navigate, queryParam } from '../lib/router.ts';
import { can } from '../lib/session.ts';
import { refId, type Category, type MenuItem, type ModifierGroup, type Station } from '../lib/types.ts';
import { Badge, Button, Dialog, Empty, ErrorNote, Field, Loading, PageHeader, SelectField, Tabs, TextArea, Toggle, useAction, useLoad } from '../ui/kit.tsx';

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
const OTHER_LANGUAGES = ['de', 'fr', 'es', 'it'] as const;

interface Menu {
  categories: Category[];
  items: MenuItem[];
  groups: ModifierGroup[];
  stations: Station[];
}

async function loadMenu(): Promise<Menu> {
  const [categories, items, groups, stations] = await Promise.all([
    getAll<Category>('/v1/menu_categories', { is_active: false }),
    getAll<MenuItem>('/v1/menu_items', { is_active: false }),
    getAll<ModifierGroup>('/v1/modifier_groups'),
    getAll<Station>('/v1/stations').catch(() => [] as Station[]),
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
  const [act, busy, error] = useAction();
  const writable = can('menu:write');
  const tree = categoryTree(menu.categories);

  // The 86 switch: one tap, and every channel (QR menu, API, screens) refuses the item at once.
  const setAvailable = (item: MenuItem, on: boolean) => act(async () => (await patch(`/v1/menu_items/${item.id}`, { is_available: on }), await reload()));
  const restore = (item: MenuItem) => act(async () => (await patch(`/v1/menu_items/${item.id}`, { is_active: true }), await reload()));
  const remove = (item: MenuItem) => act(async () => (await del(`/v1/menu_items/${item.id}`), await reload()));

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
            <ul class="item-list">
              {items.map((i) => (
                <li key={i.id} class={`item-row ${!i.is_available ? 'is-86' : ''} ${!i.is_active ? 'is-removed' : ''}`}>
                  <div class="item-main">
                    <strong>{i.name}</strong>
                    <span class="muted">
                      {money(i.price)}
                      {i.modifier_groups.length ? ` · ${i.modifier_groups.map((g) => menu.groups.find((x) => x.id === g)?.name ?? g).join(', ')}` : ''}
                      {i.station ? ` · ${t('menu.itemStation')}: ${stationNameOf(menu, i.station)}` : ''}
                    </span>
                    {i.allergens.length ? <span class="muted">{t('menu.allergens')}: {i.allergens.join(', ')}</span> : null}
                  </div>
                  <div class="item-actions">
                    {i.is_active ? (
                      <>
                        <Toggle label={i.is_available ? t('menu.available') : t('menu.eightySixed')} checked={i.is_available} disabled={!writable || busy} onChange={(on) => setAvailable(i, on)} />
                        {writable ? (
                          <Button onClick={() => setEditing(i)} aria-label={t('menu.editNamed', { name: i.name })}>
                            {t('common.edit')}
                          </Button>
                        ) : null}
                        {writable ? (
                          <Button variant="quiet" onClick={() => remove(i)} aria-label={t('menu.removeNamed', { name: i.name })}>
                            {t('common.remove')}
                          </Button>
                        ) : null}
                      </>
                    ) : writable ? (
                      <Button onClick={() => restore(i)} aria-label={t('menu.restoreNamed', { name: i.name })}>
                        {t('menu.restore')}
                      </Button>
                    ) : null}
                  </div>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
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
    groups: new Set(item?.modifier_groups ?? []),
    // '' = the category's station
    station: item?.station ?? '',
    translations: Object.fromEntries(OTHER_LANGUAGES.map((l) => [l, item?.translations?.[l]?.name ?? ''])) as Record<string, string>,
  });
  // an edit sends only what changed since the dialog opened (see changedFields)
  const [opened] = useState(form);
  const [act, busy, error] = useAction();
  const [invalid, setInvalid] = useState<string | null>(null);
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
      price: parseMoney(f.price),
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

  const save = async (e: Event) => {
    e.preventDefault();
    const price = parseMoney(form.price);
    const cost = form.cost.trim() ? parseMoney(form.cost) : null;
    const tax = form.tax.trim() ? Number(form.tax.replace(',', '.')) / 100 : null;
    if (price === null) return setInvalid('price');
    if (form.cost.trim() && cost === null) return setInvalid('cost');
    if (tax !== null && !(tax >= 0 && tax <= 1)) return setInvalid('tax');
    setInvalid(null);
    const body = bodyOf(form);
    if (await act(async () => (item ? await patchChanged(`/v1/menu_items/${item.id}`, body, bodyOf(opened)) : await post('/v1/menu_items', body)))) {
      await onSaved();
      onClose();
    }
  };

  return (
    <Dialog title={item ? t('menu.editItem') : t('menu.newItem')} open onClose={onClose}>
      <form onSubmit={save} class="form-grid">
        <Field label={t('menu.name')} required {...text('name')} />
        <SelectField label={t('menu.category')} value={form.category} onChange={(v) => setForm({ ...form, category: v })} options={activeCats.map(({ cat, depth }) => ({ value: cat.id, label: `${'— '.repeat(depth)}${cat.name}` }))} />
        <SelectField
          label={t('menu.itemStation')}
          value={form.station}
          onChange={(v) => setForm({ ...form, station: v })}
          options={[
            { value: '', label: t('menu.categoryStation', { name: stationNameOf(menu, menu.categories.find((c) => c.id === form.category)?.station) }) },
            ...menu.stations.filter((s) => s.is_active || s.key === form.station).map((s) => ({ value: s.key, label: s.name })),
          ]}
        />
        <div class="row">
          <Field label={t('menu.price')} required inputMode="decimal" error={invalid === 'price' ? t('menu.badAmount') : null} {...text('price')} />
          <Field label={t('menu.cost')} inputMode="decimal" error={invalid === 'cost' ? t('menu.badAmount') : null} {...text('cost')} />
          <Field label={t('menu.tax')} inputMode="decimal" hint={t('menu.taxHint')} error={invalid === 'tax' ? t('menu.badTax') : null} {...text('tax')} />
        </div>
        <TextArea label={t('menu.description')} value={form.description} onInput={(v) => setForm({ ...form, description: v })} />
        <Field label={t('menu.allergens')} hint={t('menu.allergensHint')} {...text('allergens')} />
        <Field label={t('menu.imageUrl')} type="url" {...text('image_url')} />
        {menu.groups.length ? (
          <fieldset class="checks">
            <legend>{t('menu.groups')}</legend>
            {menu.groups.map((g) => (
              <label class="check" key={g.id}>
                <input
                  type="checkbox"
                  checked={form.groups.has(g.id)}
                  onChange={(e) => {
                    const next = new Set(form.groups);
                    if ((e.target as HTMLInputElement).checked) next.add(g.id);
                    else next.delete(g.id);
                    setForm({ ...form, groups: next });
                  }}
                />
                {g.name}
              </label>
            ))}
          </fieldset>
        ) : null}
        <fieldset class="checks">
          <legend>{t('menu.translations')}</legend>
          <div class="row">
            {OTHER_LANGUAGES.map((l) => (
              <Field
                key={l}
                label={t('menu.nameIn', { lang: l.toUpperCase() })}
                value={form.translations[l]}
                onInput={(e) => setForm({ ...form, translations: { ...form.translations, [l]: (e.target as HTMLInputElement).value } })}
              />
            ))}
          </div>
        </fieldset>
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
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
      for (let k = 0; k < siblings.length; k++) if (siblings[k].sort_order !== (k + 1) * 10) await patch(`/v1/menu_categories/${siblings[k].id}`, { sort_order: (k + 1) * 10 });
      await reload();
    });
  const setActive = (cat: Category, on: boolean) => act(async () => (await patch(`/v1/menu_categories/${cat.id}`, { is_active: on }), await reload()));

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
      {tree.length === 0 ? (
        <Empty>{t('menu.noCategories')}</Empty>
      ) : (
        <ul class="tree" aria-label={t('menu.categories')}>
          {tree.map(({ cat, depth }) => (
            <li key={cat.id} class={`tree-row ${cat.is_active ? '' : 'is-removed'}`} style={{ paddingLeft: `${0.75 + depth * 1.5}rem` }}>
              <div class="item-main">
                <strong>{cat.name}</strong>
                <span class="muted">
                  {t('menu.station')}: {menu.stations.find((s) => s.key === cat.station)?.name ?? cat.station}
                  {cat.available_from && cat.available_until ? ` · ${cat.available_from}–${cat.available_until}` : ''}
                  {cat.available_days.length < 7 ? ` · ${cat.available_days.map((d) => t(`day.${d}` as Key)).join(', ')}` : ''}
                </span>
              </div>
              {writable ? (
                <div class="item-actions">
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
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
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
  const [act, busy, error] = useAction();
  const bodyOf = (f: typeof form) => ({
    name: f.name,
    parent_category: f.parent || null,
    station: f.station,
    available_from: f.from || null,
    available_until: f.until || null,
    available_days: DAYS.filter((d) => f.days.has(d)),
  });
  const save = async (e: Event) => {
    e.preventDefault();
    const body = bodyOf(form);
    const sort_order = (menu.categories.filter((c) => (c.parent_category ?? '') === form.parent).length + 1) * 10;
    if (await act(async () => (cat ? await patchChanged(`/v1/menu_categories/${cat.id}`, body, bodyOf(opened)) : await post('/v1/menu_categories', { ...body, sort_order })))) {
      await onSaved();
      onClose();
    }
  };
  const parents = categoryTree(menu.categories).filter((c) => c.cat.id !== cat?.id);
  return (
    <Dialog title={cat ? t('menu.editCategory') : t('menu.newCategory')} open onClose={onClose}>
      <form onSubmit={save} class="form-grid">
        <Field label={t('menu.name')} required value={form.name} onInput={(e) => setForm({ ...form, name: (e.target as HTMLInputElement).value })} />
        <SelectField
          label={t('menu.parent')}
          value={form.parent}
          onChange={(v) => setForm({ ...form, parent: v })}
          options={[{ value: '', label: t('menu.topLevel') }, ...parents.map(({ cat: c, depth }) => ({ value: c.id, label: `${'— '.repeat(depth)}${c.name}` }))]}
        />
        <SelectField label={t('menu.station')} value={form.station} onChange={(v) => setForm({ ...form, station: v })} options={menu.stations.filter((s) => s.is_active).map((s) => ({ value: s.key, label: s.name }))} />
        <div class="row">
          <Field label={t('menu.from')} type="time" value={form.from} onInput={(e) => setForm({ ...form, from: (e.target as HTMLInputElement).value })} />
          <Field label={t('menu.until')} type="time" value={form.until} onInput={(e) => setForm({ ...form, until: (e.target as HTMLInputElement).value })} />
        </div>
        <fieldset class="checks">
          <legend>{t('menu.days')}</legend>
          {DAYS.map((d) => (
            <label class="check" key={d}>
              <input
                type="checkbox"
                checked={form.days.has(d)}
                onChange={(e) => {
                  const next = new Set(form.days);
                  if ((e.target as HTMLInputElement).checked) next.add(d);
                  else next.delete(d);
                  setForm({ ...form, days: next });
                }}
              />
              {t(`day.${d}` as Key)}
            </label>
          ))}
        </fieldset>
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
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
      {menu.groups.length === 0 ? (
        <Empty>{t('menu.noGroups')}</Empty>
      ) : (
        <ul class="item-list">
          {menu.groups.map((g) => (
            <li key={g.id} class="item-row">
              <div class="item-main">
                <strong>{g.name}</strong>
                <span class="muted">
                  {g.required ? t('menu.required') : t('menu.optional')} · {t('menu.bounds', { min: g.min_selections, max: g.max_selections })}
                </span>
                <span class="muted">{g.modifiers.map((m) => (m.price_adjustment ? `${m.name} (+${money(m.price_adjustment)})` : m.name)).join(', ')}</span>
              </div>
              {writable ? (
                <div class="item-actions">
                  <Button onClick={() => setEditing(g)} aria-label={t('menu.editNamed', { name: g.name })}>
                    {t('common.edit')}
                  </Button>
                </div>
              ) : null}
            </li>
          ))}
        </ul>
      )}
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
  const [act, busy, error] = useAction();
  const bodyOf = (f: typeof opened) => ({
    name: f.name,
    required: f.required,
    min_selections: Number(f.min),
    max_selections: Number(f.max),
    modifiers: f.mods.filter((m) => m.name.trim()).map((m) => ({ name: m.name.trim(), price_adjustment: parseMoney(m.price || '0') ?? 0 })),
  });
  const save = async (e: Event) => {
    e.preventDefault();
    const body = bodyOf({ name, required, min, max, mods });
    if (await act(async () => (group ? await patchChanged(`/v1/modifier_groups/${group.id}`, body, bodyOf(opened)) : await post('/v1/modifier_groups', body)))) {
      await onSaved();
      onClose();
    }
  };
  return (
    <Dialog title={group ? t('menu.editGroup') : t('menu.newGroup')} open onClose={onClose}>
      <form onSubmit={save} class="form-grid">
        <Field label={t('menu.name')} required value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <Toggle label={t('menu.required')} checked={required} onChange={setRequired} />
        <div class="row">
          <Field label={t('menu.min')} type="number" min={0} value={min} onInput={(e) => setMin((e.target as HTMLInputElement).value)} />
          <Field label={t('menu.max')} type="number" min={1} value={max} onInput={(e) => setMax((e.target as HTMLInputElement).value)} />
        </div>
        <fieldset class="checks">
          <legend>{t('menu.modifiers')}</legend>
          {mods.map((m, i) => (
            <div class="row" key={i}>
              <Field label={t('menu.modifierN', { n: i + 1 })} value={m.name} onInput={(e) => setMods(mods.map((x, j) => (j === i ? { ...x, name: (e.target as HTMLInputElement).value } : x)))} />
              <Field label={t('menu.surcharge')} inputMode="decimal" value={m.price} onInput={(e) => setMods(mods.map((x, j) => (j === i ? { ...x, price: (e.target as HTMLInputElement).value } : x)))} />
            </div>
          ))}
          <Button onClick={() => setMods([...mods, { name: '', price: '' }])}>{t('menu.addModifier')}</Button>
        </fieldset>
        <ErrorNote error={error} />
        <div class="dialog-actions">
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" disabled={busy}>
            {t('common.save')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
