/** A believable trattoria menu: prices in cents. */
export const DEMO_MENU: {
  category: string;
  parent?: string;
  station: string;
  items: [name: string, price: number, cost: number, groups?: string[], extra?: { tax_rate?: number; allergens?: string[] }][];
}[] = [
  { category: 'Food', station: 'kitchen', items: [] },
  { category: 'Antipasti', parent: 'Food', station: 'kitchen', items: [
    ['Bruschetta al pomodoro', 750, 180, [], { allergens: ['gluten'] }],
    ['Burrata con pomodorini', 1250, 420, [], { allergens: ['milk'] }],
    ['Carpaccio di manzo', 1390, 510],
    ['Vitello tonnato', 1350, 480, [], { allergens: ['fish', 'egg'] }],
    ['Antipasto misto', 1690, 620, ['size']],
  ] },
  { category: 'Pasta', parent: 'Food', station: 'kitchen', items: [
    ['Spaghetti carbonara', 1450, 320, ['pasta-extras'], { allergens: ['gluten', 'egg', 'milk'] }],
    ['Tagliatelle al ragù', 1550, 380, ['pasta-extras'], { allergens: ['gluten', 'egg'] }],
    ['Penne all\'arrabbiata', 1250, 220, ['pasta-extras', 'spice'], { allergens: ['gluten'] }],
    ['Linguine alle vongole', 1890, 640, [], { allergens: ['gluten', 'molluscs'] }],
    ['Ravioli ricotta e spinaci', 1590, 410, ['pasta-extras'], { allergens: ['gluten', 'egg', 'milk'] }],
    ['Lasagne della casa', 1650, 450, [], { allergens: ['gluten', 'egg', 'milk'] }],
  ] },
  { category: 'Pizza', parent: 'Food', station: 'kitchen', items: [
    ['Margherita', 1050, 210, ['pizza-toppings', 'crust'], { allergens: ['gluten', 'milk'] }],
    ['Diavola', 1290, 290, ['pizza-toppings', 'crust', 'spice'], { allergens: ['gluten', 'milk'] }],
    ['Quattro formaggi', 1390, 340, ['pizza-toppings', 'crust'], { allergens: ['gluten', 'milk'] }],
    ['Prosciutto e funghi', 1390, 330, ['pizza-toppings', 'crust'], { allergens: ['gluten', 'milk'] }],
    ['Capricciosa', 1450, 360, ['pizza-toppings', 'crust'], { allergens: ['gluten', 'milk'] }],
  ] },
  { category: 'Dal grill', parent: 'Food', station: 'grill', items: [
    ['Bistecca alla fiorentina (500 g)', 3890, 1650, ['doneness', 'side']],
    ['Tagliata di manzo', 2690, 1100, ['doneness', 'side']],
    ['Pollo alla griglia', 1890, 610, ['side']],
    ['Salsiccia e friarielli', 1690, 520, ['side']],
    ['Branzino alla griglia', 2450, 980, ['side'], { allergens: ['fish'] }],
  ] },
  { category: 'Dolci', station: 'dessert', items: [
    ['Tiramisù', 750, 190, [], { allergens: ['gluten', 'egg', 'milk'] }],
    ['Panna cotta', 690, 140, [], { allergens: ['milk'] }],
    ['Cannoli siciliani', 790, 210, [], { allergens: ['gluten', 'milk'] }],
    ['Affogato al caffè', 590, 130, [], { allergens: ['milk'] }],
  ] },
  { category: 'Bevande', station: 'bar', items: [] },
  { category: 'Vini', parent: 'Bevande', station: 'bar', items: [
    ['Chianti Classico (0,2 l)', 790, 240, ['size']],
    ['Pinot Grigio (0,2 l)', 720, 210, ['size']],
    ['Prosecco (0,1 l)', 650, 180],
  ] },
  { category: 'Analcolici', parent: 'Bevande', station: 'bar', items: [
    ['Acqua minerale (0,75 l)', 590, 90, [], { tax_rate: 0.19 }],
    ['Limonata artigianale', 450, 90],
    ['Espresso', 290, 40],
    ['Cappuccino', 390, 70, [], { allergens: ['milk'] }],
    ['Aperol Spritz', 890, 250],
  ] },
];

export const DEMO_GROUPS: Record<string, { name: string; required?: boolean; min?: number; max?: number; modifiers: [string, number][] }> = {
  'pasta-extras': { name: 'Pasta extras', max: 3, modifiers: [['Extra parmigiano', 150], ['Gluten-free pasta', 200], ['Fresh chili', 0]] },
  'pizza-toppings': { name: 'Extra toppings', max: 4, modifiers: [['Bufala mozzarella', 250], ['Rocket', 100], ['Prosciutto crudo', 300], ['Olives', 100], ['Anchovies', 150]] },
  crust: { name: 'Crust', required: true, max: 1, modifiers: [['Classic', 0], ['Wholegrain', 150], ['Gluten-free', 300]] },
  spice: { name: 'Heat', max: 1, modifiers: [['Mild', 0], ['Hot', 0], ['Calabrian hot', 50]] },
  doneness: { name: 'Doneness', required: true, max: 1, modifiers: [['Rare', 0], ['Medium rare', 0], ['Medium', 0], ['Well done', 0]] },
  side: { name: 'Side', required: true, max: 1, modifiers: [['Rosemary potatoes', 0], ['Grilled vegetables', 0], ['Mixed salad', 0], ['Truffle fries', 350]] },
  size: { name: 'Size', max: 1, modifiers: [['Regular', 0], ['Large', 300]] },
};
